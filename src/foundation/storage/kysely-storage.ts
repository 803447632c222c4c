import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import { createApiTokenStore } from './api-token-store.js';
import { pruneAuditBatch } from './audit-retention.js';
import { createAppTokenStore } from './app-token-store.js';
import { createAuditStore } from './audit-store.js';
import { localChangeNotifier } from './change-notifier.js';
import { createEntryStore } from './entry-store.js';
import type { FeatureTables } from './feature-tables.js';
import { createMemoryRateLimitStore } from './memory-rate-limit-store.js';
import { createSqlRateLimitStore } from './sql-rate-limit-store.js';
import { migrateToLatest } from './migrations/index.js';
import { createPendingSignInStore } from './pending-sign-in-store.js';
import { createUpstreamSessionStore } from './upstream-session-store.js';
import type { Database, SqlDialect } from './schema.js';
import { createSessionStore } from './session-store.js';
import type { Storage, SweepCounts } from './types.js';
import { createUserStore } from './user-store.js';

interface KyselyStorageOptions {
  /**
   * Run the migrations first (the default). A caller that has already
   * migrated, such as PostgreSQL under its advisory lock, passes false.
   */
  readonly migrate?: boolean;
  /** The tables features own (feature-tables.ts): migrated with the kernel's, swept with them. */
  readonly features?: readonly FeatureTables[];
}

/**
 * The stores over any Kysely database, SQLite or PostgreSQL through the same
 * code. Migrates first (unless told the caller did), so a Storage is never
 * handed out over an old schema. The dialect matters only to the migrations;
 * every query is written in the SQL both accept. Takes ownership of `db`
 * (close destroys it).
 */
export async function createKyselyStorage(
  db: Kysely<Database>,
  secretBox: SecretBox,
  dialect: SqlDialect,
  options: KyselyStorageOptions = {},
): Promise<Storage> {
  const features = options.features ?? [];
  if (options.migrate ?? true) await migrateToLatest(db, dialect, features);
  return {
    kysely: db,
    entries: createEntryStore(db, secretBox),
    users: createUserStore(db, dialect),
    sessions: createSessionStore(db),
    pendingSignIns: createPendingSignInStore(db),
    upstreamSessions: createUpstreamSessionStore(db, secretBox),
    audit: createAuditStore(db),
    apiTokens: createApiTokenStore(db),
    appTokens: createAppTokenStore(db, secretBox),
    // Several instances share limits through Redis (open-storage.ts); without
    // it, each process counts for itself.
    rateLimits: createMemoryRateLimitStore(),
    // Failed passwords are rare and must count across instances: the database
    // holds them (the start limits above stay in memory, off the hot path).
    failureCounts: createSqlRateLimitStore(db),
    changes: localChangeNotifier(),
    sweepExpired: (now, idleBefore) =>
      sweepExpired(db, dialect, now, idleBefore, secretBox, features),
    writeTogether: (work) =>
      db.transaction().execute((trx) =>
        work({
          users: createUserStore(trx, dialect),
          sessions: createSessionStore(trx),
          upstreamSessions: createUpstreamSessionStore(trx, secretBox),
          audit: createAuditStore(trx),
        }),
      ),
    pruneAudit: (batch) => pruneAuditBatch(db, dialect, batch),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * The advisory-lock key of the expiry sweep: "sweep" in ASCII, read as an
 * integer. Distinct from the migration lock (MIGRATION_LOCK_KEY).
 */
export const SWEEP_LOCK_KEY = '495924372848';

/**
 * One transaction deleting what is over. On PostgreSQL it first takes a
 * transaction-level advisory lock without waiting: an instance that finds
 * another sweeping skips this round. SQLite has one writer, this process.
 */
async function sweepExpired(
  db: Kysely<Database>,
  dialect: SqlDialect,
  now: number,
  idleBefore: number,
  secretBox: SecretBox,
  features: readonly FeatureTables[],
): Promise<SweepCounts | undefined> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}::bigint) as locked`.execute(trx);
      if (rows[0]?.locked !== true) return undefined;
    }
    await createUpstreamSessionStore(trx, secretBox).deleteExpired(now);
    await createSqlRateLimitStore(trx).deleteEnded(now);
    for (const feature of features) await feature.sweepExpired(trx, secretBox, now);
    return {
      sessions: await createSessionStore(trx).deleteExpired(now, idleBefore),
      pendingSignIns: await createPendingSignInStore(trx).deleteExpired(now),
    };
  });
}
