import { chmod, mkdir, open, stat } from 'node:fs/promises';

/** Permission bits of the group and of others. */
const OTHERS = 0o077;

/**
 * A directory only its owner may list or enter: created 0700 (with any
 * missing parents) whatever the umask, and an existing one that the group or
 * others may use is tightened to its owner's bits. For the data directory,
 * which holds the secret key and the SQLite file of password hashes.
 */
export async function privateDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  await tighten(path);
}

/**
 * A file only its owner may read: created empty 0600 if absent (never
 * truncated), an existing one tightened to its owner's bits.
 */
export async function privateFile(path: string): Promise<void> {
  const handle = await open(path, 'a', 0o600);
  await handle.close();
  await tighten(path);
}

/** Like privateFile for a file that may not exist yet (SQLite's -wal and -shm). */
export async function tightenIfPresent(path: string): Promise<void> {
  try {
    await tighten(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Drops the group's and others' permissions, keeping the owner's. */
async function tighten(path: string): Promise<void> {
  const { mode } = await stat(path);
  if ((mode & OTHERS) !== 0) await chmod(path, mode & 0o700);
}
