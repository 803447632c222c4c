import type { Kysely, Migration } from 'kysely';

/**
 * The OpenID Provider's refresh tokens (docs/openid-provider.md#refresh-tokens),
 * stored as their SHA-256, for clients that have them. Each is used once and
 * replaced (`used_at`); one presented again revokes its grant.
 */
export const oidcRefreshTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_refresh_tokens')
      .addColumn('token_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('grant_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('client_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('entry_id', 'varchar(64)')
      .addColumn('auth_time', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('oidc_refresh_tokens_grant')
      .on('oidc_refresh_tokens')
      .column('grant_id')
      .execute();
  },
};
