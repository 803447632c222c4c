import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { FeatureTables } from '../feature-tables.js';
import { createKyselyStorage } from '../kysely-storage.js';
import { migrateToLatest } from '../migrations/index.js';
import type { Database } from '../schema.js';
import type { Storage } from '../types.js';
import {
  announcingSessionStore,
  announcingUserStore,
  heldAnnouncements,
} from '../announcing-stores.js';
import type { AnnouncingRevocationFeed } from '../session-revocations.js';
import { FailoverPool } from './failover-pool.js';
import { nameStatementsOf } from './named-statements.js';
import { createPostgresRevocationFeed } from './postgres-revocation-feed.js';
import { RetryingPostgresDialect } from './retrying-dialect.js';

interface PostgresStorageOptions {
  /**
   * postgres://user:password@host:port/database, or several servers in
   * libpq's spelling (host1:port1,host2:port2), of which the primary is used
   * (failover-pool.ts).
   */
  readonly url: string;
  readonly secretBox: SecretBox;
  /** The tables features own (feature-tables.ts), migrated under the same lock. */
  readonly features?: readonly FeatureTables[];
  /**
   * Announce the endings of sessions kept here to the other instances, so
   * that each may remember sessions (not when Redis keeps the sessions and
   * carries the announcements instead).
   */
  readonly announceRevocations?: boolean;
}

/**
 * The advisory-lock key every ssogate instance migrates under: "ssogate" in
 * ASCII, read as a 64-bit integer. Fixed, so instances of any version agree.
 */
const MIGRATION_LOCK_KEY = '32496544634729573';

/** pg's type id of int8 (bigint). */
const INT8: number = pg.types.builtins.INT8;

/**
 * int8 (bigint: the epoch-millisecond columns, COUNT(*)) as a JS number
 * rather than pg's default string. Every value stored is a safe integer; the
 * stores check again (columns.ts) and accept either form.
 */
const builtInParser = pg.types.getTypeParser as unknown as (
  oid: number,
  format?: 'text' | 'binary',
) => unknown;
const getTypeParser = ((oid: number, format?: 'text' | 'binary'): unknown =>
  oid === INT8 && format !== 'binary'
    ? (value: string) => Number(value)
    : builtInParser(oid, format)) as typeof pg.types.getTypeParser;

/**
 * PostgreSQL for the durable data, for several instances behind a load
 * balancer. Migrates on open under a session advisory lock on one
 * connection, so instances starting together migrate once and none is
 * handed a Storage over an old schema.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  // Each new connection goes to the server that is the primary now; a
  // connection time-out short enough that a dead server in the list costs
  // little before the next is tried.
  const pool = new FailoverPool(options.url, {
    max: 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    types: { getTypeParser },
  });
  // An idle client losing its server (a restart, a fail-over) is emitted on the
  // pool; unheard, it would crash the process. The pool has already dropped
  // the client, the next query gets a fresh one, and readiness reports an outage.
  pool.on('error', () => undefined);
  // A client checked out of the pool has no such listener: losing its server
  // between two statements of a transaction (the unit of work awaits other
  // stores meanwhile) emits 'error' on the client itself, which would crash
  // the process. The transaction's next statement fails with the driver's
  // error (a 503), and the pool discards the broken client on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  // Each query text is parsed and planned once per connection (named-statements.ts).
  nameStatementsOf(pool);
  // Statements that lost their server are tried again where safe (retrying-dialect.ts).
  const db = new Kysely<Database>({ dialect: new RetryingPostgresDialect({ pool }) });
  try {
    await migrateUnderLock(db, options.features ?? []);
    const storage = await createKyselyStorage(db, options.secretBox, 'postgres', {
      migrate: false,
      features: options.features ?? [],
    });
    if (options.announceRevocations !== true) return storage;
    return withAnnouncedRevocations(storage, await createPostgresRevocationFeed({ pool }));
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Sessions in PostgreSQL, remembered by each instance: every ending of a
 * session and change to a user is announced to the other instances over
 * LISTEN/NOTIFY before the caller goes on (postgres-revocation-feed.ts).
 */
function withAnnouncedRevocations(storage: Storage, feed: AnnouncingRevocationFeed): Storage {
  return {
    ...storage,
    sessions: announcingSessionStore(storage.sessions, feed),
    users: announcingUserStore(storage.users, feed),
    // Announced once committed (announcing-stores.ts heldAnnouncements).
    async writeTogether(work) {
      let held = heldAnnouncements(feed);
      const result = await storage.writeTogether((stores) => {
        // Afresh for each run of `work`, in case a run is tried again.
        held = heldAnnouncements(feed);
        return work({
          ...stores,
          sessions: announcingSessionStore(stores.sessions, held.later),
          users: announcingUserStore(stores.users, held.later),
        });
      });
      await held.send();
      return result;
    },
    revocations: feed,
    async close() {
      await feed.close();
      await storage.close();
    },
  };
}

async function migrateUnderLock(
  db: Kysely<Database>,
  features: readonly FeatureTables[],
): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`.execute(connection);
    try {
      await migrateToLatest(connection, 'postgres', features);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`.execute(connection);
    }
  });
}
