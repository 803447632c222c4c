import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSsogateError } from '../../core/index.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { addressPolicy, parseAllowList } from '../../foundation/outbound/address-policy.js';
import { entriesFileMaxBytes, loadEntriesFile, provisionEntries } from './entries-file.js';
import type { EntryDraft } from '../../core/test-support/entries.js';
import { entryWithId } from '../../core/test-support/entries.js';

const entry = (id: string, overrides: Partial<EntryDraft> = {}) =>
  entryWithId(id, { appsecret: 'file-secret', ...overrides });

async function withFile(
  name: string,
  text: string,
  run: (path: string) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-entries-'));
  try {
    const path = join(dir, name);
    await writeFile(path, text);
    await run(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The config_invalid message of a failed load. */
async function failure(path: string): Promise<string> {
  try {
    await loadEntriesFile(path);
  } catch (error) {
    assert.ok(isSsogateError(error));
    assert.equal(error.code, 'config_invalid');
    return error.message;
  }
  assert.fail('the file was accepted');
}

describe('SSOGATE_ENTRIES_FILE', () => {
  test('reads JSON', async () => {
    await withFile(
      'entries.json',
      JSON.stringify({ entries: [entry('a'), entry('b', { appsecret: '' })] }),
      async (path) => {
        const inputs = await loadEntriesFile(path);
        assert.deepEqual(
          inputs.map((input) => input.id),
          ['a', 'b'],
        );
        assert.equal(inputs[0]?.appsecret, 'file-secret');
        // Blank optional fields are absent, exactly as the API normalises them.
        assert.equal(inputs[1]?.appsecret, undefined);
      },
    );
  });

  test('reads YAML, with the mappings as text', async () => {
    const yaml = [
      'entries:',
      '  - id: corp',
      '    name: Corp',
      '    enabled: true',
      '    authorizeUrl: https://idp.example/a?state=${state}',
      '    tokenUrl: https://idp.example/t?code=${code}',
      "    tokenParse: JSON_GET($response, 'access_token')",
      '    userInfoUrl: https://idp.example/me?t=${access_token}',
      '    userInfoParse: |',
      "      userId = JSON_GET($response, 'id')",
      '      # a comment',
    ].join('\n');
    await withFile('entries.yaml', yaml, async (path) => {
      const [corp] = await loadEntriesFile(path);
      assert.equal(corp?.name, 'Corp');
      assert.equal(typeof corp.userInfoParse, 'string');
      assert.match(corp.userInfoParse as string, /userId = /);
    });
  });

  test('an invalid file lists every problem with its entry index, id and field', async () => {
    const entries = [
      entry('good'),
      entry('corp', { tokenUrl: 'https://idp.example/token?code=${nope}', name: '' }),
      { id: 'bare' },
      'not an entry',
    ];
    await withFile('entries.json', JSON.stringify({ entries }), async (path) => {
      const message = await failure(path);
      assert.match(message, /entries\[1\] \(id "corp"\) tokenUrl column \d+: /);
      assert.match(message, /entries\[1\] \(id "corp"\) name: /);
      assert.match(message, /entries\[2\] \(id "bare"\) tokenParse: is required/);
      assert.match(message, /entries\[3\] entry: /);
      assert.doesNotMatch(message, /entries\[0\]/);
    });
  });

  test('a duplicate id and a second default are problems too', async () => {
    const entries = [entry('a', { isDefault: true }), entry('b', { isDefault: true }), entry('a')];
    await withFile('entries.json', JSON.stringify({ entries }), async (path) => {
      const message = await failure(path);
      assert.match(
        message,
        /entries\[1\] \(id "b"\) isDefault: entries\[0\] is the default already/,
      );
      assert.match(message, /entries\[2\] \(id "a"\) id: duplicates entries\[0\]/);
    });
  });

  test('not a file, not parseable, or the wrong shape: config_invalid saying so', async () => {
    assert.match(await failure(tmpdir()), /cannot read .* \(EISDIR\)/);
    assert.match(await failure(join(tmpdir(), 'no-such-ssogate-file.json')), /\(ENOENT\)/);
    await withFile('bad.json', '{"entries": [ {"appsecret": "leak-me", }, ] ,, }', async (path) => {
      const message = await failure(path);
      assert.match(message, /neither JSON nor YAML: .* at line 1, column \d+$/);
      // The parser's excerpt of the file is dropped: it may quote a secret.
      assert.doesNotMatch(message, /leak-me/);
    });
    await withFile('list.yaml', '- id: a', async (path) => {
      assert.match(await failure(path), /must hold an object with an "entries" list/);
    });
  });

  test('a YAML warning never reaches standard error, where it would quote a secret', async () => {
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(`${warning.name} ${warning.message}`);
    process.on('warning', listen);
    try {
      const text = [
        'entries:',
        '  - id: tagged',
        '    name: Tagged',
        ...Object.entries(entry('tagged'))
          .filter(([field]) => !['id', 'name', 'appsecret'].includes(field))
          .map(([field, value]) => `    ${field}: ${JSON.stringify(value)}`),
        '    appsecret: !!js/function canary-secret-in-a-tag',
      ].join('\n');
      await withFile('tagged.yaml', text, async (path) => {
        const [loaded] = await loadEntriesFile(path);
        assert.equal(loaded?.appsecret, 'canary-secret-in-a-tag');
      });
      // Warnings are emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    assert.deepEqual(warnings, []);
  });

  test('a file over 1 MiB is refused with entries_file_too_large before it is parsed; 1 MiB is read', async () => {
    const valid = JSON.stringify({ entries: [entry('big')] });
    // Padding with spaces keeps the file valid JSON, so only its size can refuse it.
    const padded = (bytes: number) => valid.slice(0, -1) + ' '.repeat(bytes - valid.length) + '}';
    await withFile('at-limit.json', padded(entriesFileMaxBytes), async (path) => {
      assert.equal((await loadEntriesFile(path)).length, 1);
    });
    await withFile('over-limit.json', padded(entriesFileMaxBytes + 1), async (path) => {
      await assert.rejects(loadEntriesFile(path), (error) => {
        assert.ok(isSsogateError(error));
        assert.equal(error.code, 'entries_file_too_large');
        assert.match(error.message, /larger than 1048576 bytes/);
        return true;
      });
    });
  });

  test('provisioning creates, replaces whole (secret included) and skips unchanged entries', async () => {
    await withTestStorage(async (storage) => {
      await withFile(
        'entries.json',
        JSON.stringify({ entries: [entry('a'), entry('b')] }),
        async (path) => {
          const inputs = await loadEntriesFile(path);
          assert.deepEqual(await provisionEntries(storage, inputs, 1000), {
            created: 2,
            updated: 0,
            unchanged: 0,
          });
          assert.deepEqual(await provisionEntries(storage, inputs, 2000), {
            created: 0,
            updated: 0,
            unchanged: 2,
          });
          assert.equal((await storage.entries.get('a'))?.updatedAt, 1000);
        },
      );
      await withFile(
        'entries.json',
        JSON.stringify({ entries: [entry('a', { name: 'New', appsecret: undefined })] }),
        async (path) => {
          const counts = await provisionEntries(storage, await loadEntriesFile(path), 3000);
          assert.deepEqual(counts, { created: 0, updated: 1, unchanged: 0 });
          const a = await storage.entries.get('a');
          assert.equal(a?.input.name, 'New');
          // The file is the source of truth: no appsecret in it, none stored.
          assert.equal(await storage.entries.hasSecret('a'), false);
          assert.ok(await storage.entries.get('b'), 'entries not in the file are left alone');
        },
      );
    });
  });

  test('refuses entries that would call internal hosts; the allowlist lets them through', async () => {
    const internal = entry('internal', {
      tokenUrl: 'POST https://[::ffff:127.0.0.1]/token?code=${code}',
      userInfoUrl: 'https://metadata.google.internal/me?access_token=${access_token}',
    });
    await withFile('entries.json', JSON.stringify({ entries: [internal] }), async (path) => {
      const message = await failure(path);
      assert.match(message, /entries\[0\] \(id "internal"\) tokenUrl: ::ffff:7f00:1 is loopback/);
      assert.match(message, /userInfoUrl: metadata\.google\.internal names .* metadata service/);
      const problems: string[] = [];
      const allow = parseAllowList(
        '127.0.0.1,metadata.google.internal',
        'SSOGATE_OUTBOUND_ALLOW',
        problems,
      );
      const inputs = await loadEntriesFile(path, undefined, addressPolicy(allow));
      assert.equal(inputs.length, 1);
    });
  });

  test('instances starting together provision the same file without failing', async () => {
    await withTestStorage(async (storage) => {
      await withFile(
        'entries.json',
        JSON.stringify({ entries: [entry('a'), entry('b')] }),
        async (path) => {
          const inputs = await loadEntriesFile(path);
          const results = await Promise.all(
            [1, 2, 3].map(() => provisionEntries(storage, inputs, 1000)),
          );
          assert.equal(
            results.reduce((sum, counts) => sum + counts.created, 0),
            2,
          );
          assert.equal((await storage.entries.list()).length, 2);
        },
      );
    });
  });
});
