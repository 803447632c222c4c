import net from 'node:net';
import pg from 'pg';

/** One wait on a server: a PostgreSQL query, or one write of Redis commands (a pipeline is one). */
export interface RoundTrip {
  readonly server: 'postgres' | 'redis';
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
  let log: RoundTrip[] = [];
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
    log.push({ server: 'postgres', what: text });
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  };
  net.Socket.prototype.write = function write(this: net.Socket, ...args: unknown[]): boolean {
    const [chunk] = args;
    if (this.remotePort === redisPort && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      log.push({ server: 'redis', what: commandNames(chunk.toString()) });
    }
    return (socketWrite as (...a: unknown[]) => boolean).apply(this, args);
  };
  return {
    take() {
      const taken = log;
      log = [];
      return taken;
    },
    stop() {
      pg.Client.prototype.query = clientQuery;
      net.Socket.prototype.write = socketWrite;
    },
  };
}

/** The commands' names in a RESP write: each array's first bulk string. */
function commandNames(resp: string): string {
  const names: string[] = [];
  for (const match of resp.matchAll(/\*\d+\r\n\$\d+\r\n([^\r]*)\r\n/g)) {
    names.push((match[1] ?? '').toLowerCase());
  }
  return names.join(' ');
}
