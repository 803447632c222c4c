import type { Kysely, Migration } from 'kysely';

/**
 * An API token may end by itself (docs/admin-api.md#api-tokens): null means
 * it lasts until revoked, as every token made before this column did.
 */
export const apiTokenExpiryMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('api_tokens').addColumn('expires_at', 'bigint').execute();
  },
};
