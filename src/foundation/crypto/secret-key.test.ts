import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecretKey, parseSecretKey } from './secret-key.js';

async function withTempDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-key-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('parseSecretKey', () => {
  const raw = randomBytes(32);

  test('accepts base64, base64url and hex of 32 bytes', () => {
    for (const text of [
      raw.toString('base64'),
      raw.toString('base64url'),
      raw.toString('hex'),
      raw.toString('hex').toUpperCase(),
      ` ${raw.toString('base64')}\n`,
    ]) {
      assert.deepEqual(Buffer.from(parseSecretKey(text, 'test')), raw);
    }
  });

  test('refuses other lengths and junk, saying how to make a key', () => {
    for (const text of [
      '',
      'short',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      raw.toString('hex').slice(2),
      `${raw.toString('base64').slice(0, 10)}!!${raw.toString('base64').slice(12)}`,
    ]) {
      assert.throws(() => parseSecretKey(text, 'SSOGATE_SECRET_KEY'), /openssl rand -base64 32/);
    }
  });
});

describe('loadOrCreateSecretKey', () => {
  test('a configured key wins and writes nothing', async () => {
    await withTempDir(async (dir) => {
      const raw = randomBytes(32);
      const key = await loadOrCreateSecretKey({ dataDir: dir, configuredKey: raw.toString('hex') });
      assert.deepEqual(Buffer.from(key), raw);
      await assert.rejects(stat(join(dir, 'secret.key')), { code: 'ENOENT' });
    });
  });

  test('an invalid configured key is refused', async () => {
    await withTempDir(async (dir) => {
      await assert.rejects(
        loadOrCreateSecretKey({ dataDir: dir, configuredKey: 'nope' }),
        /openssl rand -base64 32/,
      );
    });
  });

  test('generates a key once, mode 0600, in a new nested data dir, then reads it', async () => {
    await withTempDir(async (dir) => {
      const dataDir = join(dir, 'a', 'b');
      const first = await loadOrCreateSecretKey({ dataDir });
      assert.equal(first.length, 32);
      const file = join(dataDir, 'secret.key');
      if (process.platform !== 'win32') assert.equal((await stat(file)).mode & 0o777, 0o600);
      const second = await loadOrCreateSecretKey({ dataDir });
      assert.deepEqual(second, first);
      assert.deepEqual(
        Buffer.from(parseSecretKey(await readFile(file, 'utf8'), file)),
        Buffer.from(first),
      );
    });
  });

  test('a corrupt key file is an error, not silently replaced', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'secret.key'), 'garbage');
      await assert.rejects(loadOrCreateSecretKey({ dataDir: dir }), /secret\.key/);
    });
  });
});
