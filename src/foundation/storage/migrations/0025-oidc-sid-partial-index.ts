import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/**
 * The index of OpenID Connect sessions by the provider's `sid`
 * (0006-openid-connect.ts) holds only the sessions that have one. A
 * provider that sends no `sid` claim (it is optional, OpenID Connect
 * Front-Channel Logout 1.0 §3) left a null in it at every sign-in, and its
 * page among those a sign-in's commit writes (docs/benchmarks.md#pages-a-sign-in-writes).
 * A back-channel logout finds sessions by `provider_sid = ?`, which implies
 * the condition, so SQLite and PostgreSQL still use the index for it.
 */
export const oidcSidPartialIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('oidc_sessions_entry_sid').execute();
    await sql`create index oidc_sessions_entry_sid on oidc_sessions (entry_id, provider_sid) where provider_sid is not null`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('oidc_sessions_entry_sid').execute();
    await db.schema
      .createIndex('oidc_sessions_entry_sid')
      .on('oidc_sessions')
      .columns(['entry_id', 'provider_sid'])
      .execute();
  },
};
