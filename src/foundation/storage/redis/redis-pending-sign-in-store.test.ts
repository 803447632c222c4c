import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PendingSignIn } from '../types.js';
import type { RedisStores } from './open-redis-stores.js';
import { parsePending } from './redis-pending-sign-in-store.js';
import { redisSkip, sleep, useRedisSuite } from './test-support/redis-test-support.js';

const skip = await redisSkip();

function pending(stateHash: string, overrides: Partial<PendingSignIn> = {}): PendingSignIn {
  const now = Date.now();
  return {
    stateHash,
    entryId: 'corp',
    returnTo: '/inbox',
    bindingHash: 'b',
    redirectUri: 'https://gw.example/_sso/callback/corp',
    codeVerifier: 'v',
    createdAt: now,
    expiresAt: now + 60_000,
    ...overrides,
  };
}

describe('Redis PendingSignInStore', { skip }, () => {
  const suite = useRedisSuite();
  let other: RedisStores;
  before(async () => {
    other = await suite.open();
  });

  test('save, then consume once: the second consume finds nothing', async () => {
    const record = pending('s1', { codeVerifier: null });
    await suite.stores().pendingSignIns.save(record);
    assert.deepEqual(await suite.stores().pendingSignIns.consume('s1'), record);
    assert.equal(await suite.stores().pendingSignIns.consume('s1'), undefined);
    assert.equal(await suite.stores().pendingSignIns.consume('never-saved'), undefined);
  });

  test('a sign-in started on one instance completes on another', async () => {
    const record = pending('s2');
    await suite.stores().pendingSignIns.save(record);
    assert.deepEqual(await other.pendingSignIns.consume('s2'), record);
  });

  test('the key expires with the sign-in', async () => {
    await suite.stores().pendingSignIns.save(pending('s3', { expiresAt: Date.now() + 30_000 }));
    const ttl = await suite.redis().pttl(`${suite.prefix}pending:s3`);
    assert.ok(ttl > 25_000 && ttl <= 30_000, `PTTL ${ttl}`);
    // Measured from createdAt, so an injected clock far in the past works too.
    await suite.stores().pendingSignIns.save(pending('s5', { createdAt: 100, expiresAt: 30_100 }));
    const oldClockTtl = await suite.redis().pttl(`${suite.prefix}pending:s5`);
    assert.ok(oldClockTtl > 25_000 && oldClockTtl <= 30_000, `PTTL ${oldClockTtl}`);
    // Already over: kept for 1 ms at most, never forever.
    await suite.stores().pendingSignIns.save(pending('s4', { expiresAt: Date.now() - 1000 }));
    await sleep(20);
    assert.equal(await suite.stores().pendingSignIns.consume('s4'), undefined);
  });

  test('20 concurrent consumes of one state, on two instances: exactly one wins', async () => {
    await suite.stores().pendingSignIns.save(pending('race'));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? suite.stores() : other).pendingSignIns.consume('race'),
      ),
    );
    assert.equal(results.filter((result) => result !== undefined).length, 1);
  });

  test('deleteExpired leaves expiry to Redis', async () => {
    assert.equal(await suite.stores().pendingSignIns.deleteExpired(Date.now()), 0);
  });

  test('a stored value that is not a pending sign-in reads as none', async () => {
    await suite.redis().set(`${suite.prefix}pending:bad`, '{"entryId":1}', 'PX', 60_000);
    assert.equal(await suite.stores().pendingSignIns.consume('bad'), undefined);
  });
});

describe('parsePending', () => {
  test('copies the known fields only, and takes the state hash from the key', () => {
    const record = pending('s');
    const parsed = parsePending('s', JSON.stringify({ ...record, stateHash: 'other', extra: 'x' }));
    assert.deepEqual(parsed, record);
  });

  test('rejects malformed JSON and wrong types', () => {
    assert.equal(parsePending('s', 'not json'), undefined);
    assert.equal(parsePending('s', 'null'), undefined);
    assert.equal(parsePending('s', '"text"'), undefined);
    const valid = pending('s');
    assert.equal(parsePending('s', JSON.stringify({ ...valid, expiresAt: '1' })), undefined);
    assert.equal(parsePending('s', JSON.stringify({ ...valid, codeVerifier: 3 })), undefined);
    const missing: Record<string, unknown> = { ...valid };
    delete missing.returnTo;
    assert.equal(parsePending('s', JSON.stringify(missing)), undefined);
  });

  test("a handoff's user id: kept, null when stored before it was, refused when not text", () => {
    const valid = pending('s');
    const handoff = { host: 'wiki.example', signInHash: 'sign-in', userId: 'alice' };
    const read = (value: unknown) =>
      parsePending('s', JSON.stringify({ ...valid, handoff: value }))?.handoff;
    assert.deepEqual(read(handoff), handoff);
    assert.deepEqual(read({ host: 'wiki.example', signInHash: 'sign-in' }), {
      ...handoff,
      userId: null,
    });
    assert.equal(
      parsePending('s', JSON.stringify({ ...valid, handoff: { ...handoff, userId: 7 } })),
      undefined,
    );
  });
});
