import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../schema.js';

/**
 * On SQLite, a log of the writes that end or change sessions, filled by
 * triggers, so that every process on the file (a second gateway, a command
 * beside the server, even a hand-written statement) tells the others what to
 * forget: a session deleted (sign-out, ended, swept), a user deleted or one
 * of the columns a session check reads changed (enabled, admin flag, the
 * identity headers' attributes), an entry deleted or edited. A sign-in, a
 * session's activity, a pending sign-in or an audit row logs nothing.
 * Readers: src/foundation/storage/sqlite/sqlite-revocation-feed.ts. PostgreSQL keeps no
 * such log: the gateway announces its revocations instead, over Redis
 * (src/foundation/storage/redis/redis-revocation-feed.ts) or, without it, over
 * LISTEN/NOTIFY (src/foundation/storage/postgres/postgres-revocation-feed.ts).
 */
const userColumns = [
  'enabled',
  'is_admin',
  'user_id',
  'user_name',
  'email',
  'mobile',
  'department',
  'extra',
] as const;

const statements = [
  `CREATE TABLE session_revocations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scope TEXT NOT NULL,
    subject TEXT NOT NULL
  )`,
  `CREATE TRIGGER sessions_revoke_deleted AFTER DELETE ON sessions BEGIN
    INSERT INTO session_revocations (scope, subject) VALUES ('session', OLD.id_hash);
  END`,
  `CREATE TRIGGER users_revoke_changed AFTER UPDATE OF ${userColumns.join(', ')} ON users
    WHEN ${userColumns.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(' OR ')}
  BEGIN
    INSERT INTO session_revocations (scope, subject) VALUES ('user', OLD.id);
  END`,
  `CREATE TRIGGER users_revoke_deleted AFTER DELETE ON users BEGIN
    INSERT INTO session_revocations (scope, subject) VALUES ('user', OLD.id);
  END`,
  `CREATE TRIGGER entries_revoke_changed AFTER UPDATE OF definition ON entries
    WHEN OLD.definition IS NOT NEW.definition
  BEGIN
    INSERT INTO session_revocations (scope, subject) VALUES ('entry', OLD.id);
  END`,
  `CREATE TRIGGER entries_revoke_deleted AFTER DELETE ON entries BEGIN
    INSERT INTO session_revocations (scope, subject) VALUES ('entry', OLD.id);
  END`,
];

const drops = [
  'DROP TRIGGER entries_revoke_deleted',
  'DROP TRIGGER entries_revoke_changed',
  'DROP TRIGGER users_revoke_deleted',
  'DROP TRIGGER users_revoke_changed',
  'DROP TRIGGER sessions_revoke_deleted',
  'DROP TABLE session_revocations',
];

export function sessionRevocationsMigration(dialect: SqlDialect): Migration {
  const run = async (db: Kysely<unknown>, list: readonly string[]) => {
    if (dialect !== 'sqlite') return;
    for (const statement of list) await sql.raw(statement).execute(db);
  };
  return {
    up: (db) => run(db, statements),
    down: (db) => run(db, drops),
  };
}
