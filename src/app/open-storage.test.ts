import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../foundation/config/load-config.js';
import { testBackend } from '../test-support/test-backend.js';
import { openStorage } from './open-storage.js';

/** The permission bits of a file or directory, as an octal string ("600"). */
async function mode(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o777).toString(8);
}

/**
 * Opens the storage of a gateway whose data directory is `dataDir`, writes
 * once (so SQLite's WAL and shared-memory files exist), then runs `check`
 * while it is open.
 */
async function withStorageIn(dataDir: string, check: (sqlite: boolean) => Promise<void>) {
  const database = join(dataDir, 'ssogate.db');
  const backend = await testBackend({ sqliteFile: database });
  try {
    const storage = await openStorage(loadConfig({ SSOGATE_DATA_DIR: dataDir, ...backend.env }));
    try {
      await storage.users.insertIfAbsent({ userId: 'u', sourceEntryId: null }, 1);
      await check(backend.name.startsWith('sqlite'));
    } finally {
      await storage.close();
    }
  } finally {
    await backend.cleanup();
  }
}

describe('the data directory and its files', () => {
  test('are created private (0700 and 0600) whatever the umask', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'ssogate-modes-'));
    const previous = process.umask(0o022);
    try {
      const dataDir = join(parent, 'fresh', 'data');
      await withStorageIn(dataDir, async (sqlite) => {
        assert.equal(await mode(dataDir), '700');
        assert.equal(await mode(join(dataDir, 'secret.key')), '600');
        if (!sqlite) return;
        for (const name of ['ssogate.db', 'ssogate.db-wal', 'ssogate.db-shm'])
          assert.equal(await mode(join(dataDir, name)), '600', name);
      });
    } finally {
      process.umask(previous);
      await rm(parent, { recursive: true, force: true });
    }
  });

  test('are tightened when they exist with looser modes', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-modes-'));
    const previous = process.umask(0o022);
    try {
      await chmod(dataDir, 0o755);
      await writeFile(join(dataDir, 'secret.key'), `${'a'.repeat(64)}\n`, { mode: 0o644 });
      await mkdir(join(dataDir, 'unrelated'), { mode: 0o755 });
      await withStorageIn(dataDir, () => Promise.resolve());
      // A database file from an older version, still readable by everyone.
      await chmod(join(dataDir, 'secret.key'), 0o644);
      await chmod(dataDir, 0o755);
      await writeFile(join(dataDir, 'ssogate.db'), '', { flag: 'a' });
      await chmod(join(dataDir, 'ssogate.db'), 0o644);
      await withStorageIn(dataDir, async (sqlite) => {
        assert.equal(await mode(dataDir), '700');
        assert.equal(await mode(join(dataDir, 'secret.key')), '600');
        if (sqlite) assert.equal(await mode(join(dataDir, 'ssogate.db')), '600');
      });
      // Only the data directory itself is tightened, not what else it holds.
      assert.equal(await mode(join(dataDir, 'unrelated')), '755');
    } finally {
      process.umask(previous);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
