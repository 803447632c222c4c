import type { Kysely, Migration } from 'kysely';

/**
 * One sign-in, many hosts (docs/design.md#one-sign-in-many-hosts): a
 * session made for another host by a handoff names the session of the
 * sign-in it came from (`sign_in_hash`, that session's id hash; null for a
 * sign-in's own session), so that it ends with it. A handoff is kept as a
 * pending sign-in, single-use like the others, with the host it is for
 * and the sign-in it hands on (`handoff_host`, `handoff_sign_in`; null for
 * a sign-in).
 */
export const hostSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('sign_in_hash', 'text').execute();
    await db.schema.alterTable('pending_sign_ins').addColumn('handoff_host', 'text').execute();
    await db.schema.alterTable('pending_sign_ins').addColumn('handoff_sign_in', 'text').execute();
  },
};
