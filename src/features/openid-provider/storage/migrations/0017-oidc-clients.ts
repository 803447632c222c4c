import type { Kysely, Migration } from 'kysely';

/**
 * The applications that sign in through the gateway as an OpenID Provider
 * (docs/openid-provider.md). `secret_hash` is the SHA-256 of the client
 * secret (null for a public client, which proves itself with PKCE); the
 * rest of the client's settings are one JSON object, as an entry's
 * definition is, so a new setting needs no migration.
 */
export const oidcClientsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_clients')
      .addColumn('client_id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('secret_hash', 'varchar(64)')
      .addColumn('settings', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
};
