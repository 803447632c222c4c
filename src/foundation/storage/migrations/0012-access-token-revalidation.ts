import type { Kysely, Migration } from 'kysely';

/**
 * The access token a sign-in got and the token answer's named values, sealed,
 * beside the session's other provider facts, so that an entry can re-check a
 * session by calling user info again (docs/entries.md#re-validation). Null
 * for sessions of entries that do not re-check that way.
 */
export const accessTokenRevalidationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_sessions').addColumn('access_sealed', 'text').execute();
  },
};
