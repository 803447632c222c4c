import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../types.js';
import { redisSkip, sleep, useRedisSuite } from './test-support/redis-test-support.js';

const skip = await redisSkip();

describe('Redis SessionStore', { skip }, () => {
  const suite = useRedisSuite();

  function session(idHash: string, userRowId: number, times: Partial<SessionRecord> = {}) {
    const now = Date.now();
    return {
      idHash,
      userRowId,
      entryId: 'corp',
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + 60_000,
      ...times,
    };
  }

  test('create, get, touch, delete', async () => {
    const { sessions } = suite.stores();
    const one = session('h1', 1);
    await sessions.create(one);
    await sessions.create({ ...session('h2', 1), entryId: null });
    assert.deepEqual(await sessions.get('h1'), one);
    assert.equal((await sessions.get('h2'))?.entryId, null);
    await sessions.touch('h1', one.lastSeenAt + 500);
    assert.equal((await sessions.get('h1'))?.lastSeenAt, one.lastSeenAt + 500);
    await sessions.delete('h1');
    assert.equal(await sessions.get('h1'), undefined);
    assert.deepEqual(await suite.redis().smembers(`${suite.prefix}user-sessions:1`), ['h2']);
    await sessions.delete('h1');
    assert.equal(await sessions.get('missing'), undefined);
  });

  /** Asserts a TTL of `ms`, less the little time the test itself took. */
  async function assertTtl(key: string, ms: number) {
    const ttl = await suite.redis().pttl(key);
    assert.ok(ttl > ms - 2000 && ttl <= ms, `PTTL ${key}: ${ttl}, expected about ${ms}`);
  }

  test('every key gets a TTL matching the absolute lifetime; touch keeps it', async () => {
    const record = session('ttl', 2, { expiresAt: Date.now() + 30_000 });
    await suite.stores().sessions.create(record);
    const key = `${suite.prefix}session:ttl`;
    await assertTtl(key, 30_000);
    await assertTtl(`${suite.prefix}user-sessions:2`, 30_000);
    const expireTime = await suite.redis().pexpiretime(key);
    await suite.stores().sessions.touch('ttl', record.lastSeenAt + 1);
    assert.equal(await suite.redis().pexpiretime(key), expireTime);
  });

  test('the TTL does not depend on the caller clock matching Redis', async () => {
    // An injected clock far in the past: still a 30 s lifetime, not expired at once.
    await suite
      .stores()
      .sessions.create(
        session('old-clock', 5, { createdAt: 100, lastSeenAt: 100, expiresAt: 30_100 }),
      );
    await assertTtl(`${suite.prefix}session:old-clock`, 30_000);
  });

  test("the user's set lives as long as its longest session", async () => {
    const now = Date.now();
    await suite.stores().sessions.create(session('s1', 3, { expiresAt: now + 10_000 }));
    await suite.stores().sessions.create(session('s2', 3, { expiresAt: now + 60_000 }));
    await suite.stores().sessions.create(session('s3', 3, { expiresAt: now + 5_000 }));
    await assertTtl(`${suite.prefix}user-sessions:3`, 60_000);
  });

  test('touch of a missing or expired session does not recreate it', async () => {
    await suite.stores().sessions.touch('never', Date.now());
    assert.equal(await suite.redis().exists(`${suite.prefix}session:never`), 0);
    await suite.stores().sessions.create(session('short', 4, { expiresAt: Date.now() + 50 }));
    await sleep(120);
    await suite.stores().sessions.touch('short', Date.now());
    assert.equal(await suite.redis().exists(`${suite.prefix}session:short`), 0);
    assert.equal(await suite.stores().sessions.get('short'), undefined);
  });

  test('deleteForUser ends every session of that user only', async () => {
    const { sessions } = suite.stores();
    await sessions.create(session('a1', 10));
    await sessions.create(session('a2', 10));
    await sessions.create(session('b1', 11));
    assert.equal(await sessions.deleteForUser(10), 2);
    assert.equal(await sessions.deleteForUser(10), 0);
    assert.equal(await sessions.get('a1'), undefined);
    assert.equal(await sessions.get('a2'), undefined);
    assert.notEqual(await sessions.get('b1'), undefined);
    assert.equal(await suite.redis().exists(`${suite.prefix}user-sessions:10`), 0);
  });

  test('deleteForUser counts only sessions still there', async () => {
    await suite.stores().sessions.create(session('gone', 12, { expiresAt: Date.now() + 50 }));
    await suite.stores().sessions.create(session('kept', 12));
    await sleep(120);
    assert.equal(await suite.stores().sessions.deleteForUser(12), 1);
  });

  test('deleteExpired leaves expiry to Redis', async () => {
    assert.equal(await suite.stores().sessions.deleteExpired(Date.now(), Date.now()), 0);
  });

  test('a malformed hash reads as no session', async () => {
    await suite.redis().hset(`${suite.prefix}session:bad`, { userRowId: 'x', createdAt: '1' });
    await suite.redis().pexpire(`${suite.prefix}session:bad`, 60_000);
    assert.equal(await suite.stores().sessions.get('bad'), undefined);
  });
});
