import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../foundation/config/load-config.js';

/** One stored text value, and where it lies. */
export interface StoredText {
  readonly table: string;
  readonly column: string;
  readonly value: string;
}

/**
 * Every text (and blob, read as UTF-8) value of every table of the
 * gateway's database, read through a connection of its own: a test looks
 * here for values that must never be stored. SQLite must be a file, so
 * that this second connection sees the gateway's data.
 */
export async function everyStoredText(database: Config['database']): Promise<StoredText[]> {
  return database.kind === 'sqlite' ? sqliteTexts(database.filename) : postgresTexts(database.url);
}

function sqliteTexts(filename: string): StoredText[] {
  const raw = new BetterSqlite3(filename, { readonly: true });
  try {
    const tables = raw.prepare("select name from sqlite_master where type = 'table'").all() as {
      name: string;
    }[];
    const found: StoredText[] = [];
    for (const { name: table } of tables) {
      const rows = raw.prepare(`select * from "${table}"`).all() as Record<string, unknown>[];
      for (const row of rows)
        for (const [column, value] of Object.entries(row)) {
          if (typeof value === 'string') found.push({ table, column, value });
          else if (Buffer.isBuffer(value))
            found.push({ table, column, value: value.toString('utf8') });
        }
    }
    return found;
  } finally {
    raw.close();
  }
}

async function postgresTexts(url: string): Promise<StoredText[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
       where table_schema = current_schema()
         and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea')`,
    );
    const found: StoredText[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await client.query<{ value: string | Buffer | object | null }>(
        `select "${column}" as value from "${table}"`,
      );
      for (const { value } of rows) {
        if (value === null) continue;
        const text =
          typeof value === 'string'
            ? value
            : Buffer.isBuffer(value)
              ? value.toString('utf8')
              : JSON.stringify(value);
        found.push({ table, column, value: text });
      }
    }
    return found;
  } finally {
    await client.end();
  }
}

/**
 * Runs SQL statements on the gateway's database through a connection of its
 * own, as an operator at a database prompt would (a row deleted by hand, a
 * schema set back to an older migration). SQLite must be a file.
 */
export async function executeStatements(
  database: Config['database'],
  statements: readonly string[],
): Promise<void> {
  if (database.kind === 'sqlite') {
    const raw = new BetterSqlite3(database.filename);
    try {
      for (const statement of statements) raw.exec(statement);
    } finally {
      raw.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
