import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord, Storage } from './types.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { testBackendName } from '../../test-support/test-backend.js';

// With Redis, sessions and pending sign-ins live there: Redis expires them by
// TTL (deleteExpired has nothing to do) and enforces no foreign key.
const sqlOnly = testBackendName().endsWith('+redis') ? 'SQL stores only (Redis in use)' : false;

async function newUser(storage: Storage, userId: string): Promise<number> {
  return (await storage.users.insertIfAbsent({ userId, sourceEntryId: null }, 1)).user.id;
}

function session(idHash: string, userRowId: number, times: Partial<SessionRecord> = {}) {
  return {
    idHash,
    userRowId,
    entryId: 'corp',
    createdAt: 100,
    lastSeenAt: 100,
    expiresAt: 10_000,
    ...times,
  };
}

describe('SessionStore', () => {
  test('recordFactor writes the factor on a sign-in and the host sessions made from it', async () => {
    await withTestStorage(async (storage) => {
      const { sessions } = storage;
      const user = await newUser(storage, 'u');
      await sessions.create(session('sign-in', user));
      await sessions.create({ ...session('host', user), signInHash: 'sign-in', host: 'b.example' });
      await sessions.create(session('other', user));
      const factor = { method: 'totp', at: 700 };
      await sessions.recordFactor({ idHash: 'sign-in', userRowId: user }, factor);
      assert.deepEqual((await sessions.get('sign-in'))?.factor, factor);
      assert.deepEqual((await sessions.get('host'))?.factor, factor);
      assert.equal((await sessions.get('other'))?.factor, undefined);
      // A session made with a factor reads it back.
      await sessions.create({ ...session('copied', user), factor });
      assert.deepEqual((await sessions.get('copied'))?.factor, factor);
    });
  });

  test('create, get, touch, delete', async () => {
    await withTestStorage(async (storage) => {
      const { sessions } = storage;
      const user = await newUser(storage, 'u');
      await sessions.create(session('h1', user));
      await sessions.create({ ...session('h2', user), entryId: null });
      assert.deepEqual(await sessions.get('h1'), session('h1', user));
      assert.equal((await sessions.get('h2'))?.entryId, null);
      await sessions.touch('h1', 500);
      assert.equal((await sessions.get('h1'))?.lastSeenAt, 500);
      await sessions.delete('h1');
      assert.equal(await sessions.get('h1'), undefined);
      await sessions.delete('h1');
      await sessions.touch('missing', 1);
      assert.equal(await sessions.get('missing'), undefined);
    });
  });

  test('a session needs an existing user (foreign key)', { skip: sqlOnly }, async () => {
    await withTestStorage(async ({ sessions }) => {
      await assert.rejects(
        sessions.create(session('h', 424242)),
        /FOREIGN KEY|foreign key constraint/,
      );
    });
  });

  test('deleteForUser ends every session of that user only', async () => {
    await withTestStorage(async (storage) => {
      const { sessions } = storage;
      const a = await newUser(storage, 'a');
      const b = await newUser(storage, 'b');
      await sessions.create(session('a1', a));
      await sessions.create(session('a2', a));
      await sessions.create(session('b1', b));
      assert.equal(await sessions.deleteForUser(a), 2);
      assert.equal(await sessions.deleteForUser(a), 0);
      assert.equal(await sessions.get('a1'), undefined);
      assert.notEqual(await sessions.get('b1'), undefined);
    });
  });

  test('deleteForEntry ends every session signed in with that entry only; it says how many', async () => {
    await withTestStorage(async (storage) => {
      const { sessions } = storage;
      const a = await newUser(storage, 'a');
      const b = await newUser(storage, 'b');
      await sessions.create(session('a-corp', a));
      await sessions.create(session('b-corp', b));
      await sessions.create({ ...session('a-other', a), entryId: 'other' });
      await sessions.create({ ...session('b-local', b), entryId: null });
      assert.equal(await sessions.deleteForEntry('corp'), 2);
      assert.equal(await sessions.deleteForEntry('corp'), 0);
      assert.equal(await sessions.get('a-corp'), undefined);
      assert.equal(await sessions.get('b-corp'), undefined);
      assert.notEqual(await sessions.get('a-other'), undefined);
      assert.notEqual(await sessions.get('b-local'), undefined);
      // A session already ended one by one is not counted again.
      await sessions.create({ ...session('gone', a), entryId: 'other' });
      await sessions.delete('gone');
      await sessions.create({ ...session('b-other', b), entryId: 'other' });
      assert.equal(await sessions.deleteForUser(b), 2);
      assert.equal(await sessions.deleteForEntry('other'), 1);
      assert.equal(await sessions.get('a-other'), undefined);
    });
  });

  test(
    'deleteExpired removes sessions past their end or idle too long',
    { skip: sqlOnly },
    async () => {
      await withTestStorage(async (storage) => {
        const { sessions } = storage;
        const u = await newUser(storage, 'u');
        await sessions.create(session('ended', u, { expiresAt: 1000 }));
        await sessions.create(session('ends-now', u, { expiresAt: 2000 }));
        await sessions.create(session('idle', u, { lastSeenAt: 400 }));
        await sessions.create(session('fresh', u, { lastSeenAt: 1500 }));
        await sessions.create(session('idle-edge', u, { lastSeenAt: 500 }));
        assert.equal(await sessions.deleteExpired(2000, 500), 3);
        assert.notEqual(await sessions.get('fresh'), undefined);
        assert.notEqual(await sessions.get('idle-edge'), undefined);
        assert.equal(await sessions.deleteExpired(2000, 500), 0);
      });
    },
  );

  test('countActive counts the sessions not yet ended', async () => {
    await withTestStorage(async (storage) => {
      const { sessions } = storage;
      const u = await newUser(storage, 'u');
      await sessions.create(session('fresh', u, { lastSeenAt: 1500, expiresAt: 3_600_000 }));
      await sessions.create(session('gone', u, { expiresAt: 3_600_000 }));
      await sessions.delete('gone');
      if (sqlOnly === false) {
        await sessions.create(session('ended', u, { expiresAt: 1000 }));
        await sessions.create(session('idle', u, { lastSeenAt: 400 }));
        await sessions.create(session('idle-edge', u, { lastSeenAt: 500 }));
        assert.equal(await sessions.countActive(2000, 500), 2);
      } else {
        // Redis drops a session's key at its end by itself: what is left is counted.
        assert.equal(await sessions.countActive(2000, 500), 1);
      }
    });
  });
});
