import type { Kysely, Migration } from 'kysely';

/**
 * Application tokens (docs/entries.md#the-application-token) cached for their
 * lifetime, shared by every instance of one database. The token is sealed
 * like the secrets; `fingerprint` ties it to the entry's settings that made
 * it, so an edited entry never uses a token its old settings fetched.
 */
export const appTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_tokens')
      .addColumn('entry_id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('fingerprint', 'varchar(64)', (column) => column.notNull())
      .addColumn('token_sealed', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
  },
};
