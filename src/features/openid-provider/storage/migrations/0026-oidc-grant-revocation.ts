import type { Kysely, Migration } from 'kysely';

/**
 * A grant of the OpenID Provider revoked stays revoked
 * (docs/openid-provider.md#refresh-tokens): a code or refresh token presented
 * again marks its grant (`revoked_at`) rather than deleting its rows, so the
 * used ones stay as tombstones until they expire and a later replay is still
 * seen as one (RFC 9700 §4.14.2, RFC 6749 §4.1.2). Tokens are added to a
 * grant only in a transaction that first writes `last_issued_at` on its row,
 * still unrevoked: that write takes the row, so a revocation at the same
 * moment either comes first (and nothing is added) or waits and removes
 * what was added.
 */
export const oidcGrantRevocationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_grants').addColumn('revoked_at', 'bigint').execute();
    await db.schema.alterTable('oidc_grants').addColumn('last_issued_at', 'bigint').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_grants').dropColumn('last_issued_at').execute();
    await db.schema.alterTable('oidc_grants').dropColumn('revoked_at').execute();
  },
};
