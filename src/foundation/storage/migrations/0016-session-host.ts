import type { Kysely, Migration } from 'kysely';

/**
 * A host's session is bound to the host it was handed to
 * (docs/design.md#one-sign-in-many-hosts): `host`, normalised, set for a
 * session a handoff made (`sign_in_hash` set too); null for a sign-in's own
 * session, which serves the auth host. Read with the session, so the check
 * costs no other read.
 */
export const sessionHostMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('host', 'text').execute();
  },
};
