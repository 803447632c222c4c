import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Redis } from 'ioredis';
import { testBackend, testBackendName } from './test-backend.js';

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query('select 1 from pg_database where datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

// The name says which backend the whole suite ran on.
describe(`the test backend: ${testBackendName()}`, () => {
  test(`backend: ${testBackendName()}`, async () => {
    const backend = await testBackend();
    try {
      assert.equal(backend.name, testBackendName());
      const adminUrl = process.env.SSOGATE_TEST_DATABASE_URL ?? '';
      const redisUrl = process.env.SSOGATE_TEST_REDIS_URL ?? '';
      const databaseUrl = backend.env.SSOGATE_DATABASE_URL ?? '';
      const database = adminUrl === '' ? '' : new URL(databaseUrl).pathname.slice(1);
      if (adminUrl === '') {
        assert.equal(databaseUrl, 'sqlite::memory:');
      } else {
        assert.match(database, /^ssogate_t_[0-9a-f]{16}$/);
        assert.equal(await databaseExists(adminUrl, database), true);
      }
      const prefix = backend.env.SSOGATE_REDIS_PREFIX ?? '';
      const redis = redisUrl === '' ? undefined : new Redis(redisUrl);
      try {
        if (redis === undefined) {
          assert.equal(backend.env.SSOGATE_REDIS_URL, undefined);
        } else {
          assert.match(prefix, /^t[0-9a-f]{16}:$/);
          await redis.set(`${prefix}probe`, '1');
        }
        await backend.cleanup();
        if (database !== '') {
          assert.equal(
            await databaseExists(adminUrl, database),
            false,
            'cleanup drops the database',
          );
        }
        if (redis !== undefined) {
          assert.equal(await redis.exists(`${prefix}probe`), 0, 'cleanup deletes the keys');
        }
      } finally {
        redis?.disconnect();
      }
    } finally {
      await backend.cleanup();
    }
  });
});
