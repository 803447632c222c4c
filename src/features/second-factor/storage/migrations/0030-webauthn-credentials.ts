import type { Kysely, Migration } from 'kysely';

/**
 * Passkeys and security keys (WebAuthn), a second kind of second factor
 * (docs/security.md#passkeys).
 * - `webauthn_credentials`: one row per credential a user registered and
 *   named: its id (base64url), public key (COSE, base64url) and the last
 *   signature counter seen, which an assertion's counter must exceed when
 *   either is non-zero: the update that raises it is the one check, so an
 *   assertion counts once across every instance (WebAuthn Level 3 §6.1.1).
 * - `webauthn_challenges`: the challenges handed to a session's browser,
 *   stored as SHA-256 hashes and deleted by the one statement that accepts
 *   one, so each is good once; the expiry sweep deletes the rest.
 */
export const webauthnCredentialsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webauthn_credentials')
      .addColumn('factor_id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('user_row_id', 'integer', (column) => column.notNull())
      .addColumn('credential_id', 'varchar(1400)', (column) => column.notNull().unique())
      .addColumn('public_key', 'text', (column) => column.notNull())
      .addColumn('counter', 'bigint', (column) => column.notNull())
      .addColumn('transports', 'varchar(200)', (column) => column.notNull())
      .addColumn('device_type', 'varchar(16)', (column) => column.notNull())
      .addColumn('name', 'varchar(64)', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('webauthn_credentials_user')
      .on('webauthn_credentials')
      .column('user_row_id')
      .execute();
    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('challenge_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('session_hash', 'varchar(64)', (column) => column.notNull())
      .addColumn('purpose', 'varchar(16)', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webauthn_challenges').execute();
    await db.schema.dropTable('webauthn_credentials').execute();
  },
};
