import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryRateLimitStore } from './memory-rate-limit-store.js';
import { randomBytes } from 'node:crypto';
import { openStorage } from '../../app/open-storage.js';
import { loadConfig } from '../config/load-config.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { withTempDir } from '../../test-support/storage-values.js';
import { withTestBackend } from '../../test-support/test-backend.js';
import type { Storage } from './types.js';
import type { RateLimitStore } from './types.js';

/** The same contract for the memory store and the suite's backend (Redis when configured). */
async function checkContract(store: RateLimitStore): Promise<void> {
  const t = 1_000_000;
  assert.equal(await store.peek('k', t), undefined);
  assert.deepEqual(await store.hit('k', t, 60_000), { count: 1, endsAt: t + 60_000, lastAt: t });
  assert.deepEqual(await store.hit('k', t + 10, 60_000), {
    count: 2,
    endsAt: t + 60_000,
    lastAt: t + 10,
  });
  assert.deepEqual(await store.peek('k', t + 20), { count: 2, endsAt: t + 60_000, lastAt: t + 10 });
  assert.equal((await store.hit('other', t, 60_000)).count, 1, 'keys count apart');
  // The window is over at endsAt itself: the next hit opens a new one.
  assert.equal(await store.peek('k', t + 60_000), undefined);
  assert.deepEqual(await store.hit('k', t + 60_000, 1000), {
    count: 1,
    endsAt: t + 61_000,
    lastAt: t + 60_000,
  });
  await store.reset('k');
  assert.equal(await store.peek('k', t + 60_001), undefined);
  const counts = await Promise.all(Array.from({ length: 20 }, () => store.hit('race', t, 60_000)));
  assert.deepEqual(
    counts.map(({ count }) => count).sort((a, b) => a - b),
    Array.from({ length: 20 }, (_, index) => index + 1),
  );
  // In turn: a count over its limit counts nothing after it.
  const turn = (first: number) => [
    { key: 'first', windowMs: 60_000, limit: first },
    { key: 'second', windowMs: 1000, limit: 5 },
  ];
  assert.deepEqual(await store.hitInTurn(turn(1), t), [
    { count: 1, endsAt: t + 60_000, lastAt: t },
    { count: 1, endsAt: t + 1000, lastAt: t },
  ]);
  assert.deepEqual(await store.hitInTurn(turn(1), t + 1), [
    { count: 2, endsAt: t + 60_000, lastAt: t + 1 },
  ]);
  assert.equal((await store.peek('second', t + 2))?.count, 1, 'the refused turn left it alone');
  assert.deepEqual(
    (await store.hitInTurn(turn(10), t + 3)).map(({ count }) => count),
    [3, 2],
  );
  assert.deepEqual(await store.hitInTurn([], t), []);
}

describe('RateLimitStore', () => {
  test('memory: fixed windows, counted atomically', async () => {
    await checkContract(createMemoryRateLimitStore());
  });

  test("the backend's store (Redis when configured): the same", async () => {
    await withTestStorage(async ({ rateLimits }) => {
      await checkContract(rateLimits);
    });
  });

  test("the database's failure counts, without Redis: the same, shared by two instances, swept when over", async () => {
    await withTempDir(async (dir) => {
      await withTestBackend(
        async (backend) => {
          // The database alone: this is the store a gateway without Redis uses.
          const env = Object.entries(backend.env).filter(([name]) => name !== 'SSOGATE_REDIS_URL');
          const config = loadConfig({
            ...Object.fromEntries(env),
            SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
            SSOGATE_LOG_LEVEL: 'silent',
          });
          const one: Storage = await openStorage(config);
          const two: Storage = await openStorage(config);
          try {
            await checkContract(one.failureCounts);
            const t = 5_000_000;
            await Promise.all([
              ...Array.from({ length: 10 }, () => one.failureCounts.hit('shared', t, 60_000)),
              ...Array.from({ length: 10 }, () => two.failureCounts.hit('shared', t, 60_000)),
            ]);
            assert.equal((await one.failureCounts.peek('shared', t))?.count, 20);
            assert.equal((await two.failureCounts.peek('shared', t))?.count, 20);
            await one.sweepExpired(t + 60_000, 0);
            assert.equal(await two.failureCounts.peek('shared', t), undefined);
          } finally {
            await Promise.all([one.close(), two.close()]);
          }
        },
        { sqliteFile: `${dir}/shared.sqlite` },
      );
    });
  });

  test('memory: full, it drops ended windows, then the oldest keys', async () => {
    const store = createMemoryRateLimitStore(2);
    await store.hit('ended', 0, 10);
    await store.hit('old', 0, 1000);
    await store.hit('new', 20, 1000);
    assert.equal(await store.peek('ended', 0), undefined);
    assert.notEqual(await store.peek('old', 20), undefined);
    await store.hit('newest', 30, 1000);
    assert.equal(await store.peek('old', 30), undefined);
    assert.equal((await store.peek('new', 30))?.count, 1);
    assert.equal((await store.peek('newest', 30))?.count, 1);
  });
});
