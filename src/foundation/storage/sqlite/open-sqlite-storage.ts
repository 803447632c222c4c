import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { privateFile, tightenIfPresent } from '../../crypto/private-files.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { FeatureTables } from '../feature-tables.js';
import { createKyselyStorage } from '../kysely-storage.js';
import { migrateToLatest } from '../migrations/index.js';
import type { Database } from '../schema.js';
import type { Storage } from '../types.js';
import { checkpointInBackground } from './background-checkpoints.js';
import { withStatementCache } from './statement-cache.js';
import { switchToWalMode } from './wal-mode.js';
import { sqliteRevocationFeed } from './sqlite-revocation-feed.js';

interface SqliteStorageOptions {
  /** A file path, or ':memory:' for a database that lives as long as the Storage. */
  readonly filename: string;
  readonly secretBox: SecretBox;
  /** The tables features own (feature-tables.ts), migrated under the same write lock. */
  readonly features?: readonly FeatureTables[];
}

function isMemory(filename: string): boolean {
  return filename === '' || filename === ':memory:';
}

/** The embedded default: one SQLite file, migrated on open. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  if (!isMemory(options.filename)) {
    // The file holds password hashes: only its owner may read it, whatever
    // the umask. SQLite gives the -wal and -shm files the database file's
    // mode when it creates them; ones left by an older version are tightened.
    await mkdir(dirname(options.filename), { recursive: true, mode: 0o700 });
    await privateFile(options.filename);
    for (const suffix of ['-wal', '-shm']) await tightenIfPresent(options.filename + suffix);
  }
  const database = new BetterSqlite3(options.filename);
  try {
    // WAL lets readers go on while one write commits; a memory database has no journal file.
    if (!isMemory(options.filename)) await switchToWalMode(database);
    // In WAL mode NORMAL syncs the log at checkpoints, not at every commit: a
    // commit cannot be half-applied or corrupt the file, but one made just
    // before the machine (not the process) loses power may be rolled back
    // (docs/deployment.md#what-a-sqlite-commit-survives).
    database.pragma('synchronous = NORMAL');
    // SQLite leaves foreign keys off unless asked, per connection.
    database.pragma('foreign_keys = ON');
    // Another process (a CLI command beside the server) may hold the write lock briefly.
    database.pragma('busy_timeout = 5000');
  } catch (error) {
    database.close();
    throw error;
  }
  // Each statement is prepared once and reused (statement-cache.ts).
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
  });
  // data_version moves with every other connection's commits; it takes the
  // file's shared lock, which cost a quarter of a forward-auth check when read
  // at every check, so it is read once per turn of the event loop: another
  // process's write shows from the next turn on, to requests that arrive
  // after it.
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  let version: string | undefined;
  const otherWritersVersion = (): string => {
    if (version === undefined) {
      version = String(dataVersion.get());
      setImmediate(() => {
        version = undefined;
      });
    }
    return version;
  };
  try {
    const features = options.features ?? [];
    await migrateUnderWriteLock(database, db, features);
    const storage = await createKyselyStorage(db, options.secretBox, 'sqlite', {
      migrate: false,
      features,
    });
    // After the migrations: the feed's statements read the revocation log.
    const revocations = sqliteRevocationFeed(database, otherWritersVersion);
    if (isMemory(options.filename)) return { ...storage, revocations, otherWritersVersion };
    // Checkpoints and their fsyncs off the event loop (background-checkpoints.ts).
    const checkpoints = checkpointInBackground(database, options.filename);
    return {
      ...storage,
      revocations,
      otherWritersVersion,
      async close() {
        await checkpoints.stop();
        await storage.close();
      },
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Migrates inside one transaction that takes the file's write lock first
 * (BEGIN IMMEDIATE). Kysely's SQLite migrator takes no lock of its own, so
 * two processes opening a new file together (a gateway starting while a
 * command beside it runs) would both find no migration done and both create
 * the tables; here the second waits (busy_timeout) for the first to commit,
 * then finds every migration recorded. A migration that fails rolls back
 * whole, leaving the file as it was.
 */
async function migrateUnderWriteLock(
  database: BetterSqlite3.Database,
  db: Kysely<Database>,
  features: readonly FeatureTables[],
): Promise<void> {
  database.exec('BEGIN IMMEDIATE');
  try {
    await migrateToLatest(db, 'sqlite', features);
    database.exec('COMMIT');
  } catch (error) {
    if (database.inTransaction) database.exec('ROLLBACK');
    throw error;
  }
}
