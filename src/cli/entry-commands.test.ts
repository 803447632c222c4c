import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { entryInput } from '../core/index.js';
import { loadEntriesFile } from '../features/provisioning/entries-file.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import type { GatewayStorage } from '../app/open-storage.js';
import { runCommand } from './test-support/run-command.js';
import type { EntryDraft } from '../core/test-support/entries.js';
import { entryWithId } from '../core/test-support/entries.js';

const secret = 'CLI-s3cret-9e7d';

const entry = (id: string, overrides: Partial<EntryDraft> = {}) =>
  entryWithId(id, { appsecret: secret, ...overrides });

const run = (storage: GatewayStorage, argv: string[]) => runCommand(argv, { storage });

async function withDir(use: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-cli-entries-'));
  try {
    await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('ssogate entries', () => {
  test('import creates and audits; an export without secrets imports back unchanged, secrets kept', async () => {
    await withTestStorage(async (storage) => {
      await withDir(async (dir) => {
        const file = join(dir, 'entries.json');
        await writeFile(
          file,
          JSON.stringify({
            entries: [
              entry('one', { isDefault: true }),
              entry('two', { provisioning: { userIdScope: 'entry' } }),
            ],
          }),
        );
        const imported = await run(storage, ['entries', 'import', file]);
        assert.equal(imported.code, 0, imported.err);
        assert.equal(imported.out, 'created 2, updated 0, unchanged 0\n');
        assert.equal((await storage.entries.get('one'))?.input.appsecret, secret);
        const events = await storage.audit.list({ kind: 'entry_change', limit: 10 });
        assert.equal(events.length, 2);
        assert.equal(events[0]?.actor, 'cli');
        assert.deepEqual(events[0].detail?.via, 'import');
        assert.doesNotMatch(JSON.stringify(events), new RegExp(secret));

        const exported = join(dir, 'export.yaml');
        const result = await run(storage, ['entries', 'export', exported]);
        assert.equal(result.code, 0, result.err);
        assert.match(result.err, /Exported 2 entries without their secrets/);
        const text = await readFile(exported, 'utf8');
        assert.doesNotMatch(text, new RegExp(secret));
        assert.equal((await stat(exported)).mode & 0o777, 0o600);
        const document = parseYaml(text) as { entries: Record<string, unknown>[] };
        assert.deepEqual(
          document.entries.map((item) => [item.id, item.isDefault, 'appsecret' in item]),
          [
            ['one', true, false],
            ['two', undefined, false],
          ],
        );
        assert.deepEqual(document.entries[1]?.provisioning, { userIdScope: 'entry' });
        // The export is a valid provisioning file.
        assert.equal((await loadEntriesFile(exported)).length, 2);

        const again = await run(storage, ['entries', 'import', exported]);
        assert.equal(again.out, 'created 0, updated 0, unchanged 2\n');
        assert.equal((await storage.entries.get('two'))?.input.appsecret, secret);

        const edited = text.replace('name: Entry two', 'name: Renamed');
        await writeFile(exported, edited);
        const update = await run(storage, ['entries', 'import', exported]);
        assert.equal(update.out, 'created 0, updated 1, unchanged 1\n');
        assert.equal((await storage.entries.get('two'))?.input.name, 'Renamed');
        assert.equal((await storage.entries.get('two'))?.input.appsecret, secret);
        const [change] = await storage.audit.list({ kind: 'entry_change', limit: 1 });
        assert.deepEqual(change?.detail, { action: 'update', fields: ['name'], via: 'import' });
      });
    });
  });

  test('--with-secrets includes them; - writes JSON to standard output', async () => {
    await withTestStorage(async (storage) => {
      await storage.entries.create(entryInput.parse(entry('one')), 0);
      const bare = await run(storage, ['entries', 'export', '-']);
      assert.equal(bare.code, 0);
      const document = JSON.parse(bare.out) as { entries: Record<string, unknown>[] };
      assert.equal(document.entries[0]?.id, 'one');
      assert.doesNotMatch(bare.out, new RegExp(secret));
      assert.match(bare.err, /1 stored; --with-secrets includes them/);

      const full = await run(storage, ['entries', 'export', '-', '--with-secrets']);
      assert.equal(
        (JSON.parse(full.out) as { entries: Record<string, unknown>[] }).entries[0]?.appsecret,
        secret,
      );
      assert.match(full.err, /with 1 secret: keep the file safe/);
    });
  });

  test('an invalid file is refused whole, every problem named, nothing written', async () => {
    await withTestStorage(async (storage) => {
      await withDir(async (dir) => {
        const file = join(dir, 'bad.yaml');
        await writeFile(
          file,
          JSON.stringify({
            entries: [entry('good'), entry('bad', { tokenParse: 'JSON_GET(' }), { id: 'Nope' }],
          }),
        );
        const result = await run(storage, ['entries', 'import', file]);
        assert.equal(result.code, 1);
        assert.match(result.err, /ssogate entries import .*bad\.yaml has \d+ problems/);
        assert.match(result.err, /entries\[1\] \(id "bad"\) tokenParse/);
        assert.match(result.err, /entries\[2\]/);
        assert.deepEqual(await storage.entries.list(), []);
        const missing = await run(storage, ['entries', 'import', join(dir, 'absent.json')]);
        assert.equal(missing.code, 1);
        assert.match(missing.err, /cannot read .*absent\.json \(ENOENT\)/);
      });
    });
  });

  test('import refuses entries that would call internal hosts, unless SSOGATE_OUTBOUND_ALLOW lists them', async () => {
    await withTestStorage(async (storage) => {
      await withDir(async (dir) => {
        const file = join(dir, 'internal.json');
        await writeFile(
          file,
          JSON.stringify({
            entries: [
              entry('loopback', { tokenUrl: 'POST http://0x7f000001:9090/token?code=${code}' }),
              entry('metadata', { userInfoUrl: 'http://169.254.169.254/?t=${access_token}' }),
            ],
          }),
        );
        const refused = await run(storage, ['entries', 'import', file]);
        assert.equal(refused.code, 1);
        assert.match(
          refused.err,
          /entries\[0\] \(id "loopback"\) tokenUrl: 127\.0\.0\.1 is loopback/,
        );
        assert.match(refused.err, /entries\[1\] \(id "metadata"\) userInfoUrl: 169\.254\.169\.254/);
        assert.deepEqual(await storage.entries.list(), []);

        await writeFile(
          file,
          JSON.stringify({
            entries: [entry('loopback', { tokenUrl: 'POST http://127.1:9090/token?code=${code}' })],
          }),
        );
        const allowed = await runCommand(['entries', 'import', file], {
          storage,
          env: { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1' },
        });
        assert.equal(allowed.code, 0, allowed.err);
      });
    });
  });

  test('a wrong command line prints the usage and exits 2', async () => {
    await withTestStorage(async (storage) => {
      for (const argv of [
        ['entries'],
        ['entries', 'export'],
        ['entries', 'import', 'a', 'b'],
        ['entries', 'import', 'a', '--with-secrets'],
        ['entries', 'sync', 'a'],
        ['entries', 'export', 'a', '--name', 'x'],
        ['token', 'list', '--with-secrets'],
      ]) {
        const { code, out, err } = await run(storage, argv);
        assert.equal(code, 2, argv.join(' '));
        assert.equal(out, '');
        assert.match(err, /ssogate entries export FILE/);
      }
    });
  });
});
