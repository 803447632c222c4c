import type { Kysely, Migration } from 'kysely';

/**
 * The OpenID Provider's signing keys (docs/openid-provider.md#signing-keys),
 * shared by every instance of one database: the public key as a JWK, the
 * private key sealed like the secrets. A key replaced by a newer one gets
 * `retired_at`, and stays published until `published_until`, when the
 * last token it signed has expired.
 */
export const oidcSigningKeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_signing_keys')
      .addColumn('kid', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('public_jwk', 'text', (column) => column.notNull())
      .addColumn('private_sealed', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('retired_at', 'bigint')
      .addColumn('published_until', 'bigint')
      .execute();
  },
};
