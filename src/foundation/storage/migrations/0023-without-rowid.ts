import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../schema.js';

/**
 * On SQLite, `pending_sign_ins` and `sessions` become WITHOUT ROWID tables
 * (https://www.sqlite.org/withoutrowid.html): a rowid table keyed by text
 * keeps its key in a second b-tree (an automatic index), so each row a
 * sign-in inserts or deletes there wrote one page more to the log at its
 * commit; keyed by its own primary key, the table is that b-tree. Their rows
 * are small, which such tables suit; their other indexes hold the key
 * rather than a rowid. PostgreSQL keeps its tables as they are.
 *
 * Each is rebuilt by SQLite's procedure
 * (https://www.sqlite.org/lang_altertable.html#otheralter): a new table from
 * the stored definition, the rows copied, the old one dropped, the new one
 * renamed, then its indexes and triggers (`sessions_revoke_deleted`) made
 * again from their stored text. Foreign keys stay on: the migrations run in
 * one transaction (sqlite/open-sqlite-storage.ts), where `PRAGMA
 * foreign_keys` changes nothing, and need not be off here, since no table
 * references either one; each copied session is checked against `users`
 * again, and dropping a table fires none of its triggers, so no session is
 * logged as revoked.
 *
 * `audit_events_entry_id` stays, though `audit_events_entry_sign_ins` leads
 * with the same column and dropping it would save a sign-in one page more:
 * on SQLite an index holds the rowid (`id`) after its columns, so the
 * audit list of one entry, newest first, walks it in order and stops at a
 * page's end, where the wider index reads the entry's every event and sorts
 * them.
 */
const tables = [
  ['pending_sign_ins', 'state_hash'],
  ['sessions', 'id_hash'],
] as const;

const withoutRowid = /\s+WITHOUT\s+ROWID\s*$/i;

interface SchemaRow {
  readonly type: string;
  readonly name: string;
  readonly sql: string;
}

async function rebuild(
  db: Kysely<unknown>,
  table: string,
  key: string,
  keyed: boolean,
): Promise<void> {
  const { rows } = await sql<SchemaRow>`
    select type, name, sql from sqlite_master
    where tbl_name = ${table} and sql is not null
    order by type = 'table' desc, name`.execute(db);
  const [definition, ...dependents] = rows;
  if (definition?.type !== 'table') throw new Error(`No table ${table} to rebuild.`);
  if (withoutRowid.test(definition.sql) === keyed) return;
  const rebuilt = `${table}_rebuilt`;
  const head = new RegExp(`^CREATE TABLE\\s+(?:"${table}"|${table})\\s*\\(`, 'i');
  if (!head.test(definition.sql)) throw new Error(`Unexpected definition of ${table}.`);
  const body = definition.sql
    .replace(head, `CREATE TABLE "${rebuilt}" (`)
    .replace(withoutRowid, '');
  await sql.raw(keyed ? `${body} WITHOUT ROWID` : body).execute(db);
  // A WITHOUT ROWID table's key cannot be null; a row with none was never
  // found by the key every read uses.
  await sql
    .raw(`INSERT INTO "${rebuilt}" SELECT * FROM "${table}" WHERE "${key}" IS NOT NULL`)
    .execute(db);
  await sql.raw(`DROP TABLE "${table}"`).execute(db);
  await sql.raw(`ALTER TABLE "${rebuilt}" RENAME TO "${table}"`).execute(db);
  for (const dependent of dependents) await sql.raw(dependent.sql).execute(db);
  const { rows: broken } = await sql.raw(`PRAGMA foreign_key_check("${table}")`).execute(db);
  if (broken.length > 0) throw new Error(`Rebuilding ${table} broke a foreign key.`);
}

export function withoutRowidMigration(dialect: SqlDialect): Migration {
  const run = async (db: Kysely<unknown>, keyed: boolean) => {
    if (dialect !== 'sqlite') return;
    for (const [table, key] of tables) await rebuild(db, table, key, keyed);
  };
  return {
    up: (db) => run(db, true),
    down: (db) => run(db, false),
  };
}
