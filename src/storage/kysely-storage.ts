import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import { createApiTokenStore } from './api-token-store.js';
import { createAuditStore } from './audit-store.js';
import { createEntryStore } from './entry-store.js';
import { migrateToLatest } from './migrations/index.js';
import { createPendingSignInStore } from './pending-sign-in-store.js';
import type { Database, SqlDialect } from './schema.js';
import { createSessionStore } from './session-store.js';
import type { Storage } from './types.js';
import { createUserStore } from './user-store.js';

/**
 * The stores over any Kysely database: SQLite now, PostgreSQL through the
 * same code later. Migrates first, so a Storage is never handed out over an
 * old schema. The dialect matters only to the migrations; every query is
 * written in the SQL both accept. Takes ownership of `db` (close destroys it).
 */
export async function createKyselyStorage(
  db: Kysely<Database>,
  secretBox: SecretBox,
  dialect: SqlDialect,
): Promise<Storage> {
  await migrateToLatest(db, dialect);
  return {
    entries: createEntryStore(db, secretBox),
    users: createUserStore(db),
    sessions: createSessionStore(db),
    pendingSignIns: createPendingSignInStore(db),
    audit: createAuditStore(db),
    apiTokens: createApiTokenStore(db),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
