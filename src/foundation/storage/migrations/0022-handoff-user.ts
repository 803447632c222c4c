import type { Kysely, Migration } from 'kysely';

/**
 * A handoff's record keeps the user id its finish step audits
 * (`handoff_user`; null for a sign-in, and in a record stored before), so
 * that step reads no user (docs/design.md#one-sign-in-many-hosts).
 */
export const handoffUserMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('pending_sign_ins').addColumn('handoff_user', 'text').execute();
  },
};
