import type { Kysely, Migration } from 'kysely';

/**
 * The acr values an authorization request asked for, kept on its grant
 * (docs/openid-provider.md#assurance-acr): the gateway's values it named, in
 * the client's order of preference, space-separated; null when it named
 * none. Each id_token of the grant, from its code or a refresh token, states
 * the first of them its sign-in's second factor satisfies. Grants made
 * before have none, and state the strongest their factor satisfies.
 */
export const oidcGrantAcrMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_grants').addColumn('acr_values', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_grants').dropColumn('acr_values').execute();
  },
};
