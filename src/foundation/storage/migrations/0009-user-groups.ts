import type { Kysely, Migration } from 'kysely';

/**
 * The groups an entry maps for a user (docs/entries.md#groups-and-administrators),
 * as a JSON array of text, for access rules' `groups` condition. Null until an
 * entry with a group mapping signs the user in.
 */
export const userGroupsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('group_names', 'text').execute();
  },
};
