import type { Stats } from 'node:fs';
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SsogateError } from '../core/index.js';
import type { Config } from '../foundation/config/load-config.js';
import { privateDirectory, privateFile } from '../foundation/crypto/private-files.js';
import { KEY_FILE } from '../foundation/crypto/secret-key.js';

/** What the backup and restore commands print: results on `out`, advice on `note`. */
interface BackupIo {
  readonly out: (line: string) => void;
  readonly note: (line: string) => void;
}

/** PostgreSQL is backed up with its own tools (docs/operations.md). */
const postgresAdvice = `The database is PostgreSQL: back it up with its own tools while the gateways run,
  pg_dump --format=custom --file=ssogate.dump "$SSOGATE_DATABASE_URL"
and restore with every instance stopped,
  pg_restore --clean --if-exists --no-owner --dbname="$SSOGATE_DATABASE_URL" ssogate.dump
Keep SSOGATE_SECRET_KEY with the dump: the entries' app secrets cannot be opened without it.`;

/** A failure the command reports as its message (exit code 1). */
export class BackupError extends Error {}

function sqliteFile(config: Config): string {
  if (config.database.kind === 'postgres') throw new BackupError(postgresAdvice);
  const { filename } = config.database;
  if (filename === '' || filename === ':memory:')
    throw new BackupError('The database lives in memory only: there is nothing to back up.');
  return filename;
}

/** What stat says of `path`, or undefined when nothing is there. */
async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return (await statOf(path)) !== undefined;
}

async function isFolder(path: string): Promise<boolean> {
  return (await statOf(path))?.isDirectory() === true;
}

/** Where the key travels beside a backup file. */
function keyFileOf(backupFile: string): string {
  return `${backupFile}.key`;
}

/**
 * What backup and restore both check first: the database is a SQLite file,
 * and the side they copy from (the database for a backup, FILE for a
 * restore) is there. Returns the database and where FILE's key travels.
 */
async function backupPlaces(
  config: Config,
  file: string,
  command: 'backup' | 'restore',
): Promise<{ readonly database: string; readonly keyCopy: string }> {
  const database = sqliteFile(config);
  if (command === 'backup' && !(await exists(database)))
    throw new BackupError(`There is no database at ${database}.`);
  // Else the copy would fail on the temporary file it writes first, naming that file.
  if (command === 'backup' && !(await isFolder(dirname(file))))
    throw new SsogateError(
      'backup_folder_missing',
      `There is no folder ${dirname(file)} to write ${basename(file)} in: create it first (mkdir -p ${dirname(file)}).`,
    );
  if (command === 'restore' && !(await exists(file)))
    throw new BackupError(`There is no backup at ${file}.`);
  return { database, keyCopy: keyFileOf(file) };
}

/** Neither command overwrites a file without --force. */
async function refuseToReplace(
  force: boolean,
  targets: readonly string[],
  message: string,
): Promise<void> {
  if (force) return;
  for (const target of targets) if (await exists(target)) throw new BackupError(message);
}

/** A temporary name beside `path`, so the final rename stays on one file system. */
function besideTemporary(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

/** Copies `from` to `to` through a private temporary file and a rename: never half-written. */
async function copyPrivately(from: string, to: string): Promise<void> {
  const temporary = besideTemporary(to);
  try {
    await privateFile(temporary);
    await copyFile(from, temporary);
    await rename(temporary, to);
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * `ssogate backup FILE`: a consistent copy of the SQLite database taken
 * while the gateway runs, with SQLite's online backup API (better-sqlite3's
 * backup()): pages are copied in steps, and a write by the gateway meanwhile
 * makes the copy restart, so the result is one committed state. The file is
 * 0600 from its creation (it holds password hashes and sealed secrets). The
 * generated key file goes beside it as FILE.key; a configured key is the
 * operator's to keep.
 */
export async function backupDatabase(
  config: Config,
  file: string,
  force: boolean,
  io: BackupIo,
): Promise<void> {
  const { database, keyCopy } = await backupPlaces(config, file, 'backup');
  await refuseToReplace(
    force,
    [file, keyCopy],
    `${file} or ${keyCopy} exists already; add --force to replace it.`,
  );
  const temporary = besideTemporary(file);
  const source = new BetterSqlite3(database, { readonly: true, fileMustExist: true });
  try {
    // SQLite keeps the mode of an existing file it opens: created 0600 first.
    await privateFile(temporary);
    await source.backup(temporary);
    await rename(temporary, file);
  } finally {
    source.close();
    await rm(temporary, { force: true });
  }
  io.out(`Backed up ${database} to ${file}.`);
  if (config.secretKey === undefined) {
    await copyPrivately(join(config.dataDir, KEY_FILE), keyCopy);
    io.out(`Copied the secret key to ${keyCopy}: keep it with the backup, as safely as the key.`);
  } else {
    io.note(
      'The secret key comes from SSOGATE_SECRET_KEY: keep that value with the backup; the app secrets in it cannot be opened without it.',
    );
  }
}

/** The tables a file must hold to be taken for an ssogate database. */
const expectedTables = ['entries', 'users', 'audit_events', 'kysely_migration'];

function checkIsSsogateDatabase(file: string): void {
  let database;
  try {
    database = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a SQLite database: ${String(error)}`);
  }
  try {
    const tables = new Set(
      database
        .prepare("select name from sqlite_master where type = 'table'")
        .pluck()
        .all() as string[],
    );
    const missing = expectedTables.filter((table) => !tables.has(table));
    if (missing.length > 0)
      throw new BackupError(`${file} is not an ssogate database (no ${missing.join(', ')}).`);
    const integrity = database.pragma('quick_check', { simple: true });
    if (integrity !== 'ok') throw new BackupError(`${file} is damaged: ${String(integrity)}`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable SQLite database: ${String(error)}`);
  } finally {
    database.close();
  }
}

/**
 * `ssogate restore FILE`: puts a backup in place of the configured SQLite
 * database, with the key saved beside it when there is one. The gateway must
 * be stopped first: SQLite cannot tell whether another process still has the
 * file open (docs/operations.md). Refuses to replace an existing database or
 * key without `force`.
 */
export async function restoreDatabase(
  config: Config,
  file: string,
  force: boolean,
  io: BackupIo,
): Promise<void> {
  const { database, keyCopy } = await backupPlaces(config, file, 'restore');
  checkIsSsogateDatabase(file);
  const withKey = await exists(keyCopy);
  const keyFile = join(config.dataDir, KEY_FILE);
  await refuseToReplace(
    force,
    withKey ? [database, keyFile] : [database],
    `${database} or ${keyFile} exists already. Stop the gateway, then add --force to replace them.`,
  );
  await privateDirectory(dirname(database));
  await copyPrivately(file, database);
  // The old journal belongs to the old database: left there, SQLite would replay it into the new one.
  for (const suffix of ['-wal', '-shm']) await rm(database + suffix, { force: true });
  io.out(`Restored ${file} to ${database}.`);
  if (withKey) {
    await privateDirectory(config.dataDir);
    await copyPrivately(keyCopy, keyFile);
    io.out(`Restored the secret key to ${keyFile}.`);
  } else {
    io.note(
      `No ${keyCopy} beside the backup: the gateway needs the key it was made with (SSOGATE_SECRET_KEY or ${keyFile}) to open app secrets.`,
    );
  }
}
