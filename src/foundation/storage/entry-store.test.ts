import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openSqliteStorage } from './sqlite/open-sqlite-storage.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { newSecretBox, withTempDir } from '../../test-support/storage-values.js';
import type { EntryStore } from './types.js';
import { parsedEntry } from '../../core/test-support/entries.js';
import type { EntryInput } from '../../core/index.js';

async function defaults(entries: EntryStore): Promise<string[]> {
  return (await entries.list()).filter((e) => e.input.isDefault === true).map((e) => e.input.id);
}

/** An entry as submitted without a secret: the stored one is kept or cleared as asked. */
function withoutSecret(id: string): EntryInput {
  return { ...parsedEntry(id), appsecret: undefined };
}

describe('EntryStore', () => {
  test('create, get and list round-trip the input, secret included', async () => {
    await withTestStorage(async ({ entries }) => {
      const input = parsedEntry('alpha', {
        appid: 'app-1',
        appsecret: 'the-secret',
        userInfoParse: [{ attribute: 'userId', expression: "JSON_GET($response, 'id')" }],
        provisioning: { createUsers: false },
      });
      assert.equal(await entries.create(input, 1000), true);
      const record = await entries.get('alpha');
      assert.deepEqual(record, {
        input: { ...input, isDefault: false },
        position: 1,
        createdAt: 1000,
        updatedAt: 1000,
      });
      assert.equal(await entries.get('missing'), undefined);
      assert.equal(await entries.hasSecret('alpha'), true);
      assert.equal(await entries.hasSecret('missing'), false);
    });
  });

  test('create refuses a taken id and leaves the first entry alone', async () => {
    await withTestStorage(async ({ entries }) => {
      assert.equal(await entries.create(parsedEntry('a', { name: 'First' }), 1), true);
      assert.equal(await entries.create(parsedEntry('a', { name: 'Second' }), 2), false);
      assert.equal((await entries.get('a'))?.input.name, 'First');
      assert.equal((await entries.list()).length, 1);
    });
  });

  test('new entries go last; list orders by position', async () => {
    await withTestStorage(async ({ entries }) => {
      for (const id of ['zeta', 'alpha', 'mid']) await entries.create(parsedEntry(id), 1);
      const listed = await entries.list();
      assert.deepEqual(
        listed.map((e) => [e.input.id, e.position]),
        [
          ['zeta', 1],
          ['alpha', 2],
          ['mid', 3],
        ],
      );
    });
  });

  test('at most one default, on create and on update', async () => {
    await withTestStorage(async ({ entries }) => {
      await entries.create(parsedEntry('a', { isDefault: true }), 1);
      await entries.create(parsedEntry('b'), 1);
      assert.deepEqual(await defaults(entries), ['a']);
      await entries.create(parsedEntry('c', { isDefault: true }), 2);
      assert.deepEqual(await defaults(entries), ['c']);
      await entries.update('b', parsedEntry('b', { isDefault: true }), 3);
      assert.deepEqual(await defaults(entries), ['b']);
      await entries.update('b', parsedEntry('b', { isDefault: false }), 4);
      assert.deepEqual(await defaults(entries), []);
    });
  });

  test('update replaces the definition and keeps position and createdAt', async () => {
    await withTestStorage(async ({ entries }) => {
      await entries.create(parsedEntry('a', { logoutUrl: 'https://idp.example/logout' }), 1);
      await entries.create(parsedEntry('b'), 1);
      assert.equal(await entries.update('b', parsedEntry('b', { name: 'Renamed' }), 5), true);
      const b = await entries.get('b');
      assert.ok(b !== undefined);
      assert.equal(b.input.name, 'Renamed');
      assert.equal(b.position, 2);
      assert.equal(b.createdAt, 1);
      assert.equal(b.updatedAt, 5);
      assert.equal(await entries.update('nope', parsedEntry('nope'), 5), false);
      await assert.rejects(entries.update('a', parsedEntry('other'), 5), /cannot change/);
    });
  });

  test('the secret is write-only: kept by default, replaced, or cleared', async () => {
    await withTestStorage(async ({ entries }) => {
      await entries.create(parsedEntry('a', { appsecret: 'one' }), 1);
      await entries.update('a', withoutSecret('a'), 2);
      assert.equal((await entries.get('a'))?.input.appsecret, 'one');
      await entries.update('a', withoutSecret('a'), 3, 'keep');
      assert.equal((await entries.get('a'))?.input.appsecret, 'one');
      await entries.update('a', parsedEntry('a', { appsecret: 'two' }), 4, 'clear');
      assert.equal((await entries.get('a'))?.input.appsecret, 'two');
      await entries.update('a', withoutSecret('a'), 5, 'clear');
      const cleared = await entries.get('a');
      assert.equal(cleared?.input.appsecret, undefined);
      assert.equal(cleared !== undefined && 'appsecret' in cleared.input, false);
      assert.equal(await entries.hasSecret('a'), false);
    });
  });

  test('delete', async () => {
    await withTestStorage(async ({ entries }) => {
      await entries.create(parsedEntry('a'), 1);
      assert.equal(await entries.delete('a'), true);
      assert.equal(await entries.delete('a'), false);
      assert.equal(await entries.get('a'), undefined);
    });
  });

  test('SQLite file: the secret is sealed at rest and a wrong key cannot open it', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const storage = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      await storage.entries.create(parsedEntry('a', { appsecret: 'plain-secret-42' }), 1);
      await storage.close();

      const raw = new BetterSqlite3(filename, { readonly: true });
      const row: unknown = raw
        .prepare('select definition, appsecret_sealed from entries where id = ?')
        .get('a');
      raw.close();
      assert.ok(typeof row === 'object' && row !== null);
      const { definition, appsecret_sealed: sealed } = row as Record<string, unknown>;
      assert.equal(typeof definition, 'string');
      assert.equal(typeof sealed, 'string');
      assert.ok(!String(definition).includes('plain-secret-42'));
      assert.ok(!String(definition).includes('appsecret'));
      assert.ok(!String(sealed).includes('plain-secret-42'));
      assert.match(String(sealed), /^v1\./);

      const other = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      try {
        await assert.rejects(other.entries.get('a'), /wrong secret key/);
        assert.equal(await other.entries.hasSecret('a'), true);
      } finally {
        await other.close();
      }
    });
  });

  test('reorder sets positions for exactly the stored set, and nothing otherwise', async () => {
    await withTestStorage(async ({ entries }) => {
      for (const id of ['a', 'b', 'c']) await entries.create(parsedEntry(id), 1);
      const order = async () => (await entries.list()).map((record) => record.input.id);
      assert.equal(await entries.reorder(['c', 'a', 'b']), true);
      assert.deepEqual(await order(), ['c', 'a', 'b']);
      assert.equal((await entries.get('c'))?.updatedAt, 1);
      for (const wrong of [
        ['a', 'b'],
        ['a', 'b', 'c', 'd'],
        ['a', 'a', 'b'],
        ['a', 'b', 'x'],
      ]) {
        assert.equal(await entries.reorder(wrong), false, wrong.join());
      }
      assert.deepEqual(await order(), ['c', 'a', 'b']);
      await entries.create(parsedEntry('d'), 2);
      assert.deepEqual(await order(), ['c', 'a', 'b', 'd']);
    });
  });
});
