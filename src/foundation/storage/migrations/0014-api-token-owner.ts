import type { Kysely, Migration } from 'kysely';

/**
 * Who an API token belongs to (docs/admin-api.md#api-tokens), checked at
 * each call: `owner_kind` 'user' (the administrator's row id, and their
 * userId, which must still match that row) or 'service' (a named owner of a
 * token made by `ssogate token create`, `owner_name` alone). Null in all
 * three for tokens made before this column: they keep working, shown as
 * having no owner, until revoked.
 */
export const apiTokenOwnerMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('api_tokens').addColumn('owner_kind', 'text').execute();
    await db.schema.alterTable('api_tokens').addColumn('owner_user_row_id', 'integer').execute();
    await db.schema.alterTable('api_tokens').addColumn('owner_name', 'text').execute();
  },
};
