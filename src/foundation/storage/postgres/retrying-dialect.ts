import { PostgresDialect } from 'kysely';
import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  QueryCompiler,
  QueryResult,
  RootOperationNode,
  TransactionSettings,
} from 'kysely';
import { isBackendUnavailable } from '../backend-errors.js';
import { isReadOnlyRefusal } from './failover-pool.js';

/**
 * PostgreSQL through Kysely, where every query of the stores passes: a
 * statement that failed as the primary went away is tried once more, on a
 * new connection (failover-pool.ts finds the new primary), when that cannot
 * do anything twice. Which is the case:
 *
 * - the statement was never run: a read-only server refused it (SQLSTATE
 *   25006), the server would not take the connection (57P03), or the
 *   connection was already broken so nothing was sent;
 * - the statement only reads (a Kysely SELECT): running it again is harmless
 *   whatever became of the first;
 * - it opens a transaction (BEGIN): nothing of the transaction has run yet;
 * - it is an upsert without RETURNING (INSERT ... ON CONFLICT ... DO UPDATE
 *   on a key the gateway drew at random: a pending sign-in, an upstream
 *   session): whether or not the first attempt committed, the row ends the
 *   same.
 *
 * Anything else whose commit outcome is unknown fails as the outage it is
 * (503 service_unavailable): a session's INSERT would then fail on its own
 * key, a pending sign-in's DELETE ... RETURNING (its consumption) would have
 * been used up and read as a replay, an INSERT ... ON CONFLICT DO NOTHING
 * tells its caller whether it inserted. Sign-ins write in one transaction
 * (Storage.writeTogether): retried only when it failed at BEGIN.
 *
 * Only the first statement of a connection's checkout is tried again, and
 * outside a transaction: a later one may depend on what the connection
 * holds (a transaction, a session advisory lock of the migrations).
 */
export class RetryingPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new RetryingDriver(super.createDriver());
  }
}

/** A checkout of the inner driver, which a retry replaces by a new one. */
class RetryableConnection implements DatabaseConnection {
  /** Undefined once released for a retry whose new checkout failed. */
  inner: DatabaseConnection | undefined;
  /** Nothing has been sent on this checkout yet. */
  fresh = true;
  inTransaction = false;

  constructor(
    private readonly driver: RetryingDriver,
    inner: DatabaseConnection,
  ) {
    this.inner = inner;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.firstOnceMore(
      this,
      (inner) => inner.executeQuery<R>(query),
      (error) => safeToRetry(error, query.query),
    );
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.fresh = false;
    return this.checkedOut().streamQuery<R>(query, chunkSize);
  }

  checkedOut(): DatabaseConnection {
    if (this.inner === undefined) throw new Error('the connection was lost');
    return this.inner;
  }
}

/** Kysely hands back the connections this driver gave it. */
function ours(connection: DatabaseConnection): RetryableConnection {
  if (!(connection instanceof RetryableConnection))
    throw new Error('not a connection of this driver');
  return connection;
}

class RetryingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RetryableConnection(this, await this.inner.acquireConnection());
  }

  async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    const retryable = ours(connection);
    await this.firstOnceMore(
      retryable,
      (inner) => this.inner.beginTransaction(inner, settings),
      (error) => wasNotRun(error) || isBackendUnavailable(error),
    );
    retryable.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const retryable = ours(connection);
    retryable.inTransaction = false;
    await this.inner.commitTransaction(retryable.checkedOut());
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const retryable = ours(connection);
    retryable.inTransaction = false;
    await this.inner.rollbackTransaction(retryable.checkedOut());
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.savepoint?.(ours(connection).checkedOut(), name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint?.(ours(connection).checkedOut(), name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.releaseSavepoint?.(ours(connection).checkedOut(), name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const { inner } = ours(connection);
    if (inner !== undefined) await this.inner.releaseConnection(inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /**
   * Runs the checkout's first statement; if it fails so that `retryable`
   * allows, releases the connection (failover-pool.ts discards it) and runs
   * it once on a new one.
   */
  async firstOnceMore<T>(
    connection: RetryableConnection,
    run: (inner: DatabaseConnection) => Promise<T>,
    retryable: (error: unknown) => boolean,
  ): Promise<T> {
    const first = connection.fresh && !connection.inTransaction;
    connection.fresh = false;
    try {
      return await run(connection.checkedOut());
    } catch (error) {
      if (!first || !retryable(error)) throw error;
      const failed = connection.checkedOut();
      connection.inner = undefined;
      await this.inner.releaseConnection(failed);
      connection.inner = await this.inner.acquireConnection();
      return run(connection.inner);
    }
  }
}

/** node-postgres's refusals of a query on a connection already broken: nothing was sent. */
const notSentMessages = [
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
];

/** SQLSTATE 57P03 cannot_connect_now: the server (shutting down, starting) refused to work. */
function wasNotRun(error: unknown): boolean {
  if (isReadOnlyRefusal(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '57P03') return true;
  return typeof message === 'string' && notSentMessages.some((pattern) => pattern.test(message));
}

function safeToRetry(error: unknown, node: RootOperationNode): boolean {
  if (wasNotRun(error)) return true;
  if (!isBackendUnavailable(error)) return false;
  if (node.kind === 'SelectQueryNode') return true;
  return (
    node.kind === 'InsertQueryNode' &&
    node.onConflict?.updates !== undefined &&
    node.returning === undefined
  );
}
