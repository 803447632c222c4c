import net from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * One wait on a server: a PostgreSQL query, or one write of Redis commands (a
 * pipeline is one); or one SQLite statement run, which waits on nothing but
 * costs the event loop its work.
 */
export interface RoundTrip {
  readonly server: 'postgres' | 'redis' | 'sqlite';
  /** The SQL text, or the Redis commands' names in the order written. */
  readonly what: string;
}

export interface RoundTripLog {
  /** What was recorded since the last `take`, emptied. */
  take(): RoundTrip[];
  /** Puts the driver's functions back. */
  stop(): void;
}

/**
 * Records, in this process, every round trip to PostgreSQL and Redis: each
 * query a pg client sends (the driver sends the next only after the server's
 * ReadyForQuery, so one query is one wait) and each write on a socket to the
 * Redis port (ioredis writes a command, or a whole pipeline or MULTI, in one
 * write and reads the replies back in order). Counts, never times.
 */
export function recordRoundTrips(redisPort: number): RoundTripLog {
  // Put back as they were, and called with their own `this` meanwhile.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const clientQuery = pg.Client.prototype.query;
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const socketWrite = net.Socket.prototype.write;
  (pg.Client.prototype as { query: unknown }).query = function query(
    this: pg.Client,
    ...args: unknown[]
  ): unknown {
    const [first] = args;
    const text =
      typeof first === 'string'
        ? first
        : typeof first === 'object' && first !== null && 'text' in first
          ? String(first.text)
          : '?';
    record({ server: 'postgres', what: text });
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  };
  net.Socket.prototype.write = function write(this: net.Socket, ...args: unknown[]): boolean {
    const [chunk] = args;
    if (this.remotePort === redisPort && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      record({ server: 'redis', what: commandNames(chunk.toString()) });
    }
    return (socketWrite as (...a: unknown[]) => boolean).apply(this, args);
  };
  const { record, log } = tripLog(() => {
    pg.Client.prototype.query = clientQuery;
    net.Socket.prototype.write = socketWrite;
  });
  return log;
}

/** The commands' names in a RESP write: each array's first bulk string. */
function commandNames(resp: string): string {
  const names: string[] = [];
  for (const match of resp.matchAll(/\*\d+\r\n\$\d+\r\n([^\r]*)\r\n/g)) {
    names.push((match[1] ?? '').toLowerCase());
  }
  return names.join(' ');
}

/**
 * Records, in this process, every statement better-sqlite3 runs (run, get,
 * all, iterate), BEGIN and COMMIT included; but `PRAGMA data_version`, which
 * the storage reads once per turn of the event loop, not per request
 * (sqlite/open-sqlite-storage.ts). Counts, never times.
 */
export function recordSqliteStatements(): RoundTripLog {
  const probe = new BetterSqlite3(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  probe.close();
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = prototype[method];
    if (original === undefined) continue;
    originals.set(method, original);
    prototype[method] = function recorded(this: BetterSqlite3.Statement, ...args: unknown[]) {
      if (!this.source.startsWith('PRAGMA data_version'))
        record({ server: 'sqlite', what: this.source });
      return original.apply(this, args);
    };
  }
  const { record, log } = tripLog(() => {
    for (const [method, original] of originals) prototype[method] = original;
  });
  return log;
}

/** What is recorded, and the log that hands it out; `restore` puts the driver's functions back. */
function tripLog(restore: () => void): {
  readonly record: (trip: RoundTrip) => void;
  readonly log: RoundTripLog;
} {
  let trips: RoundTrip[] = [];
  return {
    record: (trip) => {
      trips.push(trip);
    },
    log: {
      take() {
        const taken = trips;
        trips = [];
        return taken;
      },
      stop: restore,
    },
  };
}
