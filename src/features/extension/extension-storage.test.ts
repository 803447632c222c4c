import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { compileEntry } from '../../core/index.js';
import { loadEntriesFile, provisionEntries } from '../provisioning/entries-file.js';
import { openSqliteStorage } from '../../foundation/storage/sqlite/open-sqlite-storage.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { newSecretBox, withTempDir } from '../../test-support/storage-values.js';

const secret = 'ext-at-rest-CANARY-0123456789';

const extensionEntry = {
  id: 'acme',
  name: 'Acme',
  enabled: true,
  type: 'extension',
  extensionUrl: 'https://ext.corp.example',
  extensionSecret: secret,
  extensionSettings: { serverUrl: 'https://acme.example' },
};

describe('entries of type extension at rest', () => {
  test('the extension secret is sealed in its own column, never in the definition', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const storage = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      await storage.entries.create(compileEntry(extensionEntry).input, 1);
      assert.equal((await storage.entries.get('acme'))?.input.extensionSecret, secret);
      await storage.close();

      const raw = new BetterSqlite3(filename, { readonly: true });
      const row = raw
        .prepare('select definition, extension_secret_sealed as sealed from entries')
        .get() as { definition: string; sealed: string };
      raw.close();
      assert.doesNotMatch(row.definition, new RegExp(`${secret}|extensionSecret`));
      assert.match(row.definition, /"type":"extension"/);
      assert.match(row.sealed, /^v1\./);
      assert.ok(!row.sealed.includes(secret));
    });
  });

  test('the entries file provisions an extension entry, and replaces its secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-ext-file-'));
    try {
      const path = join(dir, 'entries.json');
      await withTestStorage(async (storage) => {
        await writeFile(path, JSON.stringify({ entries: [extensionEntry] }));
        await provisionEntries(storage, await loadEntriesFile(path), 1);
        assert.equal((await storage.entries.get('acme'))?.input.extensionSecret, secret);

        const rotated = { ...extensionEntry, extensionSecret: `${secret}-rotated` };
        await writeFile(path, JSON.stringify({ entries: [rotated] }));
        assert.deepEqual(await provisionEntries(storage, await loadEntriesFile(path), 2), {
          created: 0,
          updated: 1,
          unchanged: 0,
        });
        const stored = await storage.entries.get('acme');
        assert.equal(stored?.input.extensionSecret, `${secret}-rotated`);
      });
      const withoutSecret = { ...extensionEntry, extensionSecret: undefined };
      // JSON.stringify leaves out an undefined field: the file gives no secret.
      await writeFile(path, JSON.stringify({ entries: [withoutSecret] }));
      await assert.rejects(loadEntriesFile(path), /extensionSecret: is required/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
