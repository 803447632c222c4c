import type { Kysely, Migration } from 'kysely';

/**
 * What the OpenID Provider issues (docs/openid-provider.md#codes-and-tokens):
 * authorization codes and access tokens, each stored as its SHA-256 only.
 * A code is single-use (`used_at`); the tokens it was exchanged for share
 * its `grant_id`, so a code presented twice revokes them (RFC 6749 §4.1.2).
 */
export const oidcGrantsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_codes')
      .addColumn('code_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('grant_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('client_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('redirect_uri', 'text', (column) => column.notNull())
      .addColumn('code_challenge', 'varchar(128)')
      .addColumn('nonce', 'text')
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('entry_id', 'varchar(64)')
      .addColumn('auth_time', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema
      .createTable('oidc_access_tokens')
      .addColumn('token_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('grant_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('client_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('oidc_access_tokens_grant')
      .on('oidc_access_tokens')
      .column('grant_id')
      .execute();
  },
};
