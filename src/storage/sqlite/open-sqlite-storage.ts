import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { SecretBox } from '../../crypto/secret-box.js';
import { createKyselyStorage } from '../kysely-storage.js';
import type { Database } from '../schema.js';
import type { Storage } from '../types.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for a database that lives as long as the Storage. */
  readonly filename: string;
  readonly secretBox: SecretBox;
}

function isMemory(filename: string): boolean {
  return filename === '' || filename === ':memory:';
}

/** The embedded default: one SQLite file, migrated on open. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  if (!isMemory(options.filename)) {
    await mkdir(dirname(options.filename), { recursive: true });
  }
  const database = new BetterSqlite3(options.filename);
  try {
    // WAL lets readers go on while one write commits; a memory database has no journal file.
    if (!isMemory(options.filename)) database.pragma('journal_mode = WAL');
    // SQLite leaves foreign keys off unless asked, per connection.
    database.pragma('foreign_keys = ON');
    // Another process (a CLI command beside the server) may hold the write lock briefly.
    database.pragma('busy_timeout = 5000');
  } catch (error) {
    database.close();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  // total_changes() counts this connection's writes, data_version moves with
  // every other connection's commits: together, any change to the file.
  // (Two statements: a few times cheaper than one with a pragma subquery.)
  const ownChanges = database.prepare('SELECT total_changes()').pluck();
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  try {
    const storage = await createKyselyStorage(db, options.secretBox, 'sqlite');
    return {
      ...storage,
      changeStamp: () => `${String(ownChanges.get())}:${String(dataVersion.get())}`,
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
