import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStorage } from '../storage/index.js';
import type { Storage, UserRecord } from '../storage/types.js';
import { newSecretBox } from '../../test-support/storage-values.js';
import { SessionCache, maxRememberedSessions } from './session-cache.js';

const idleMs = 30 * 60_000;
const touchIntervalMs = 60_000;

const user: UserRecord = {
  id: 1,
  userId: 'u',
  sourceEntryId: null,
  userName: null,
  email: null,
  mobile: null,
  department: null,
  enabled: true,
  isAdmin: false,
  passwordHash: null,
  extra: {},
  groups: [],
  createdAt: 0,
  lastSignInAt: null,
  updatedAt: 0,
};

/** A session of `userRowId` last seen at `at`. */
function active(id: string, at: number, userRowId = 1) {
  return {
    session: {
      idHash: `hash-${id}`,
      userRowId,
      entryId: null,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at + 8 * 3_600_000,
    },
    user: { ...user, id: userRowId },
  };
}

/**
 * The cache's own bounds, over a real SQLite storage's revocation feed: its
 * size is capped, sessions past their limits leave it, and a lookup that
 * overlapped a revocation is not remembered.
 */
describe('SessionCache bounds', () => {
  let storage: Storage;
  const clock = { now: 1_000_000 };
  let cache: SessionCache;
  before(async () => {
    storage = await openSqliteStorage({ filename: ':memory:', secretBox: newSecretBox() });
    cache = new SessionCache({
      revocations: storage.revocations,
      clock: () => clock.now,
      idleMs,
      touchIntervalMs,
    });
  });
  after(async () => storage.close());

  test('at most maxRememberedSessions are remembered; the oldest go first', () => {
    for (let index = 0; index <= maxRememberedSessions; index += 1) {
      cache.remember(`s${index}`, active(`s${index}`, clock.now), cache.currentGeneration());
    }
    assert.ok(cache.size <= maxRememberedSessions, `size ${cache.size}`);
    assert.equal(cache.remembered('s0'), undefined);
    assert.notEqual(cache.remembered(`s${maxRememberedSessions}`), undefined);
    cache.forget({ scope: 'all' });
    assert.equal(cache.size, 0);
  });

  test('sessions due for their activity to be written leave at the next sweep', () => {
    cache.remember('early', active('early', clock.now), cache.currentGeneration());
    clock.now += touchIntervalMs;
    assert.equal(cache.size, 1);
    cache.remember('late', active('late', clock.now), cache.currentGeneration());
    assert.equal(cache.size, 1);
    assert.notEqual(cache.remembered('late'), undefined);
    assert.equal(cache.remembered('early'), undefined);
  });

  test('a lookup that overlapped a revocation is not remembered', () => {
    const before = cache.currentGeneration();
    cache.forget({ scope: 'user', userRowId: 99 });
    cache.remember('raced', active('raced', clock.now), before);
    assert.equal(cache.remembered('raced'), undefined);
  });

  test('user and entry revocations forget exactly their sessions', () => {
    cache.forget({ scope: 'all' });
    const generation = cache.currentGeneration();
    cache.remember('a', active('a', clock.now, 1), generation);
    cache.remember('b', active('b', clock.now, 2), generation);
    cache.remember(
      'c',
      {
        ...active('c', clock.now, 3),
        session: { ...active('c', clock.now, 3).session, entryId: 'corp' },
      },
      generation,
    );
    cache.forget({ scope: 'user', userRowId: 1 });
    assert.equal(cache.remembered('a'), undefined);
    cache.forget({ scope: 'entry', entryId: 'corp' });
    assert.equal(cache.remembered('c'), undefined);
    cache.forget({ scope: 'session', idHash: 'hash-other' });
    assert.notEqual(cache.remembered('b'), undefined);
    cache.forget({ scope: 'session', idHash: 'hash-b' });
    assert.equal(cache.remembered('b'), undefined);
  });

  test('a session is found by its id hash as by its id, and forgotten with it', () => {
    cache.forget({ scope: 'all' });
    cache.remember('d', active('d', clock.now), cache.currentGeneration());
    const found = cache.rememberedByHash('hash-d');
    assert.equal(found?.session.idHash, 'hash-d');
    assert.equal(found, cache.remembered('d'));
    assert.equal(cache.rememberedByHash('hash-none'), undefined);
    cache.forget({ scope: 'session', idHash: 'hash-d' });
    assert.equal(cache.rememberedByHash('hash-d'), undefined);
  });
});
