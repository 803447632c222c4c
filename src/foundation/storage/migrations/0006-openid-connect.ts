import type { Kysely, Migration } from 'kysely';

/**
 * OpenID Connect entries (docs/entries.md#openid-connect): the nonce a
 * pending sign-in sent, and per session what the provider said of it (the
 * sealed id_token for the logout hint, the sealed refresh token for
 * re-validation, the provider's sid and sub for back-channel logout).
 * A table beside sessions rather than new session columns, so sessions kept
 * in Redis need no change: the back-channel logout deletes the sessions it
 * finds here from whichever store holds them.
 */
export const openIdConnectMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('pending_sign_ins').addColumn('nonce', 'text').execute();
    await db.schema
      .createTable('oidc_sessions')
      .addColumn('session_hash', 'text', (column) => column.primaryKey())
      .addColumn('entry_id', 'text', (column) => column.notNull())
      .addColumn('subject', 'text', (column) => column.notNull())
      .addColumn('provider_sid', 'text')
      .addColumn('id_token_sealed', 'text', (column) => column.notNull())
      .addColumn('refresh_token_sealed', 'text')
      .addColumn('checked_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('oidc_sessions_entry_subject')
      .on('oidc_sessions')
      .columns(['entry_id', 'subject'])
      .execute();
    await db.schema
      .createIndex('oidc_sessions_entry_sid')
      .on('oidc_sessions')
      .columns(['entry_id', 'provider_sid'])
      .execute();
    await db.schema
      .createIndex('oidc_sessions_expires_at')
      .on('oidc_sessions')
      .column('expires_at')
      .execute();
    // A logout token's jti is good once (OpenID Connect Back-Channel Logout 1.0 §2.6).
    await db.schema
      .createTable('used_logout_tokens')
      .addColumn('jti_hash', 'text', (column) => column.primaryKey())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
  },
};
