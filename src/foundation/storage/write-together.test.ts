import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { testBackendName } from '../../test-support/test-backend.js';
import type { Storage, TogetherStores } from './types.js';

const sessionsInRedis = testBackendName().endsWith('+redis');

const refused = new Error('the next step failed');

/** A sign-in's writes: the user, its event, its session. */
async function signInWrites(stores: TogetherStores, userId: string): Promise<number> {
  const { user } = await stores.users.insertIfAbsent({ userId, sourceEntryId: null }, 10);
  await stores.users.recordSignIn(user.id, 20);
  await stores.audit.append({
    at: 20,
    kind: 'sign_in',
    outcome: 'success',
    entryId: null,
    userId,
    actor: null,
    code: null,
    reference: null,
    durationMs: 1,
    detail: null,
  });
  await stores.sessions.create({
    idHash: `session-of-${userId}`,
    userRowId: user.id,
    entryId: null,
    createdAt: 20,
    lastSeenAt: 20,
    expiresAt: 1_000,
  });
  return user.id;
}

async function auditedUsers(storage: Storage): Promise<(string | null)[]> {
  return (await storage.audit.list({ limit: 10 })).map((event) => event.userId);
}

describe('Storage.writeTogether', () => {
  test('commits every write of the unit when it resolves', async () => {
    await withTestStorage(async (storage) => {
      const id = await storage.writeTogether((stores) => signInWrites(stores, 'kept'));
      assert.equal((await storage.users.findByUserId('kept'))?.lastSignInAt, 20);
      assert.equal((await storage.sessions.get('session-of-kept'))?.userRowId, id);
      assert.deepEqual(await auditedUsers(storage), ['kept']);
    });
  });

  test('a failure after the writes leaves none of the SQL ones written', async () => {
    await withTestStorage(async (storage) => {
      await assert.rejects(
        storage.writeTogether(async (stores) => {
          await signInWrites(stores, 'dropped');
          throw refused;
        }),
        refused,
      );
      assert.equal(await storage.users.findByUserId('dropped'), undefined);
      assert.deepEqual(await auditedUsers(storage), []);
      // With Redis, sessions are outside the SQL transaction: a caller writes
      // the session last (sign-in/routes.ts), so only a failed commit can
      // leave one, and it names a user that does not exist (refused at use).
      if (sessionsInRedis) return;
      assert.equal(await storage.sessions.get('session-of-dropped'), undefined);
    });
  });

  test('a failing statement mid-way undoes the statements before it', async () => {
    await withTestStorage(async (storage) => {
      const { user } = await storage.users.insertIfAbsent(
        { userId: 'taken', sourceEntryId: null },
        1,
      );
      await storage.sessions.create({
        idHash: 'in-use',
        userRowId: user.id,
        entryId: null,
        createdAt: 1,
        lastSeenAt: 1,
        expiresAt: 1_000,
      });
      await assert.rejects(
        storage.writeTogether(async (stores) => {
          const { user: fresh } = await stores.users.insertIfAbsent(
            { userId: 'half', sourceEntryId: null },
            10,
          );
          await stores.users.updateAttributes(user.id, { email: 'changed@example.test' }, 10);
          // The session id is taken: in SQL the insert fails on its primary
          // key; Redis would replace it, and the throw below fails the unit.
          await stores.sessions.create({
            idHash: 'in-use',
            userRowId: fresh.id,
            entryId: null,
            createdAt: 10,
            lastSeenAt: 10,
            expiresAt: 1_000,
          });
          throw refused;
        }),
      );
      assert.equal(await storage.users.findByUserId('half'), undefined);
      assert.equal((await storage.users.findByUserId('taken'))?.email, null);
    });
  });

  test('two units of work at once each commit whole', async () => {
    await withTestStorage(async (storage) => {
      await Promise.all(
        ['a', 'b', 'c', 'd'].map((userId) =>
          storage.writeTogether((stores) => signInWrites(stores, userId)),
        ),
      );
      assert.deepEqual((await auditedUsers(storage)).sort(), ['a', 'b', 'c', 'd']);
      for (const userId of ['a', 'b', 'c', 'd'])
        assert.notEqual(await storage.sessions.get(`session-of-${userId}`), undefined);
    });
  });
});
