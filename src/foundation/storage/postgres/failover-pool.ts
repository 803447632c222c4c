import pg from 'pg';
import { isBackendUnavailable } from '../backend-errors.js';
import { postgresHosts } from '../../config/postgres-hosts.js';

/**
 * SQLSTATE 25006 read_only_sql_transaction: what a standby, or a primary
 * demoted to one, answers a write with; given to a server refused as read-only.
 */
const READ_ONLY = '25006';

/** Marks an error of reaching one server: the next server is tried. */
const serverUnusable = Symbol('serverUnusable');

/** The server new connections go to first; another one after it fails. */
class ServerChoice {
  private preferred = 0;

  constructor(readonly urls: readonly string[]) {}

  current(): number {
    return this.preferred;
  }

  /**
   * Moves on from a server that refused or failed, once however many
   * connections saw it fail together. The choice stays with the server that
   * works (not back to the first written): every instance keeps to the new
   * primary even if the old one comes back as a primary of its own, which
   * only fencing it (docs/operations.md) can prevent.
   */
  failed(index: number): void {
    if (this.preferred === index) this.preferred = (index + 1) % this.urls.length;
  }
}

function unusable(error: unknown): Error {
  const marked = error instanceof Error ? error : new Error(String(error));
  (marked as Error & { [serverUnusable]?: true })[serverUnusable] = true;
  return marked;
}

function isServerUnusable(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { [serverUnusable]?: true })[serverUnusable] === true
  );
}

/** A client of the server the choice names, which it tells when that server fails. */
function clientOfChoice(
  choice: ServerChoice,
  readWrite: boolean,
): new (config?: pg.ClientConfig) => pg.Client {
  class ServerClient extends pg.Client {
    private readonly serverIndex: number;

    constructor(config?: pg.ClientConfig) {
      const serverIndex = choice.current();
      super({ ...config, connectionString: choice.urls[serverIndex] ?? '' });
      this.serverIndex = serverIndex;
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const connected = this.connectToUsableServer();
      if (callback === undefined) return connected.then(() => this);
      connected.then(
        () => {
          // pg's own clients call back with null on success.
          (callback as (err: Error | null) => void)(null);
        },
        (error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }

    /**
     * As libpq's target_session_attrs=read-write: a server whose sessions
     * are read-only (a hot standby, a demoted primary) is left for the next.
     */
    private async connectToUsableServer(): Promise<void> {
      try {
        await super.connect();
      } catch (error) {
        choice.failed(this.serverIndex);
        throw unusable(error);
      }
      if (!readWrite) return;
      let readOnly: boolean;
      try {
        const { rows } = await super.query<{ transaction_read_only: string }>(
          'show transaction_read_only',
        );
        readOnly = rows[0]?.transaction_read_only !== 'off';
      } catch (error) {
        choice.failed(this.serverIndex);
        await this.end().catch(() => undefined);
        throw unusable(error);
      }
      if (readOnly) {
        choice.failed(this.serverIndex);
        await this.end().catch(() => undefined);
        throw unusable(
          Object.assign(
            new Error(`PostgreSQL server ${this.serverIndex + 1} takes no writes (a standby)`),
            { code: READ_ONLY },
          ),
        );
      }
    }
  }
  return ServerClient;
}

/**
 * Connections to the first server, in the URL's order from the one that
 * last worked, that answers and (with several servers) takes writes: the
 * primary of a primary and its streaming replicas, found again after a
 * replica is promoted (docs/operations.md#a-replicated-postgresql). Each
 * failed connection attempt moves to the next server, within one call of
 * connect() for each server listed, so a switch costs a query one
 * connection time-out at most per dead server.
 *
 * A connection whose query failed because the server went away, shut down
 * (SQLSTATE 57P01/57P02/57P03, class 08) or takes no more writes (25006,
 * a primary demoted in place) is discarded when released rather than
 * handed out again: pg's pool would keep it, as it only discards
 * connections whose socket it saw fail.
 */
export class FailoverPool extends pg.Pool {
  /** Clients that saw a query fail so; the pool ends them when released. */
  private readonly discarded = new WeakSet<pg.ClientBase>();

  /** How many servers the URL lists. */
  readonly serverCount: number;
  private readonly serverClient: new (config?: pg.ClientConfig) => pg.Client;

  constructor(url: string, config: Omit<pg.PoolConfig, 'connectionString' | 'Client'>) {
    const { urls, readWrite } = postgresHosts(url);
    const serverClient = clientOfChoice(new ServerChoice(urls), readWrite);
    super({ ...config, Client: serverClient });
    this.serverCount = urls.length;
    this.serverClient = serverClient;
    this.on('connect', (client) => {
      this.watchQueries(client);
    });
  }

  /**
   * A client of its own (a listening connection) to the server new
   * connections go to now; a failure to connect moves that choice on, so
   * trying again as many times as there are servers reaches the primary.
   * (Not `newClient`: pg's pool has a method of that name.)
   */
  ownClient(config: Omit<pg.ClientConfig, 'connectionString'>): pg.Client {
    return new this.serverClient(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): Promise<pg.PoolClient> | undefined {
    const connected = this.connectToSomeServer();
    if (callback === undefined) return connected;
    connected.then(
      (client) => {
        callback(undefined, client, (error?: unknown) => {
          client.release(error as Error | undefined);
        });
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), undefined, () => {});
      },
    );
    return undefined;
  }

  private async connectToSomeServer(): Promise<pg.PoolClient> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return this.discardingIfFailed(await super.connect());
      } catch (error) {
        // A full pool's wait running out is not the server's fault: only
        // an attempt at a server (ServerClient) moves the choice on.
        if (!isServerUnusable(error) || attempt >= this.serverCount) throw error;
      }
    }
  }

  /** pg's pool sets `release` anew at each checkout: wrapped each time. */
  private discardingIfFailed(client: pg.PoolClient): pg.PoolClient {
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      release(
        error ??
          (this.discarded.has(client)
            ? new Error('connection discarded after its server failed')
            : undefined),
      );
    };
    return client;
  }

  private watchQueries(client: pg.PoolClient): void {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (discardsConnection(error)) this.discarded.add(client);
        });
      }
      return result;
    };
  }
}

/** Whether a query's error means its connection's server is gone or is no primary. */
function discardsConnection(error: unknown): boolean {
  return isBackendUnavailable(error);
}

/** Whether the error is a read-only server's refusal of a write (nothing was written). */
export function isReadOnlyRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === READ_ONLY;
}
