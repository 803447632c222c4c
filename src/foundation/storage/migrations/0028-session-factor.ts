import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../schema.js';

/**
 * A session's second factor (docs/security.md#second-factor): which kind
 * (`factor_method`, such as `totp` or `recovery`) and when it was last
 * given (`factor_at`); null while the session has none. Read with the
 * session, so an access rule asking for a second factor costs no other
 * read, and one asking for none costs nothing. On SQLite, a change of it is
 * logged like a deleted session (migration 0005), so that every process on
 * the file forgets the session's remembered check and reads the new state.
 */
export function sessionFactorMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('factor_method', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('factor_at', 'bigint').execute();
      if (dialect !== 'sqlite') return;
      await sql
        .raw(
          `CREATE TRIGGER sessions_revoke_factor AFTER UPDATE OF factor_at ON sessions
            WHEN OLD.factor_at IS NOT NEW.factor_at
          BEGIN
            INSERT INTO session_revocations (scope, subject) VALUES ('session', OLD.id_hash);
          END`,
        )
        .execute(db);
    },

    async down(db: Kysely<unknown>) {
      // SQLite drops no column a trigger names: the trigger first.
      if (dialect === 'sqlite') await sql.raw('DROP TRIGGER sessions_revoke_factor').execute(db);
      await db.schema.alterTable('sessions').dropColumn('factor_at').execute();
      await db.schema.alterTable('sessions').dropColumn('factor_method').execute();
    },
  };
}
