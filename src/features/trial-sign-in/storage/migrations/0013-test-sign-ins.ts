import type { Kysely, Migration } from 'kysely';

/**
 * Administrators' test sign-ins (docs/admin-api.md#test-sign-in): the
 * pending test, found by the hash of its state at the callback, and the
 * masked trace it leaves. `sealed` holds what must stay secret until the
 * callback (a draft entry with its appsecret, the PKCE verifier, the nonce),
 * sealed like the entries' secrets. The trace is read for 30 minutes; the
 * expiry sweep deletes the row a day after that (trial-sign-in-store.ts).
 */
export const testSignInsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('test_sign_ins')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('state_key', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('actor', 'text', (column) => column.notNull())
      .addColumn('entry_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('status', 'varchar(16)', (column) => column.notNull())
      .addColumn('sealed', 'text', (column) => column.notNull())
      .addColumn('trace', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('callback_until', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
  },
};
