import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite-storage.js';
import { newSecretBox, withTempDir } from '../../test-support/storage-values.js';
import { EntryRegistry } from './entry-registry.js';
import { parsedEntry } from '../../core/test-support/entries.js';

/**
 * `ssogate entries import` writes to the SQLite file of a running gateway
 * from another process, which announces nothing: the gateway's compiled
 * entries must still follow at its next sign-in, without a restart.
 */
describe('EntryRegistry on a SQLite file another process writes to', () => {
  test('an entry another connection saves is used from the next turn on', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'ssogate.db');
      const secretBox = newSecretBox();
      const server = await openSqliteStorage({ filename, secretBox });
      const cli = await openSqliteStorage({ filename, secretBox });
      try {
        const registry = new EntryRegistry(
          server.entries,
          server.changes,
          server.otherWritersVersion,
        );
        const unaware = new EntryRegistry(server.entries, server.changes);
        assert.deepEqual(await registry.list(), []);
        assert.deepEqual(await unaware.list(), []);

        assert.equal(await cli.entries.create(parsedEntry('imported'), Date.now()), true);
        await nextTurn();

        assert.deepEqual(
          (await registry.list()).map((entry) => entry.id),
          ['imported'],
        );
        // Without the version, nothing tells the registry: what the version fixes.
        assert.deepEqual(await unaware.list(), []);
      } finally {
        await cli.close();
        await server.close();
      }
    });
  });

  test("the server's own writes do not recompile the entries", async () => {
    await withTempDir(async (dir) => {
      const server = await openSqliteStorage({
        filename: join(dir, 'ssogate.db'),
        secretBox: newSecretBox(),
      });
      try {
        await server.entries.create(parsedEntry('one'), Date.now());
        const registry = new EntryRegistry(
          server.entries,
          server.changes,
          server.otherWritersVersion,
        );
        const first = await registry.list();
        await server.users.insertIfAbsent({ userId: 'u', sourceEntryId: null }, Date.now());
        await nextTurn();
        assert.equal(await registry.list(), first);
      } finally {
        await server.close();
      }
    });
  });
});
