import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import type { Revocation } from './session-revocations.js';
import type { SessionRecord, Storage, TogetherStores } from './types.js';

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

/** A new user, and a session of theirs made at `at`, not yet written. */
async function userAndSession(
  storage: Storage,
  userId: string,
  entryId: string | null,
  at: number,
): Promise<SessionRecord> {
  const { user } = await storage.users.insertIfAbsent({ userId, sourceEntryId: null }, 1);
  return {
    idHash: `session-of-${userId}`,
    userRowId: user.id,
    entryId,
    createdAt: at,
    lastSeenAt: at,
    expiresAt: 1_000,
  };
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

  test('a failure after the writes leaves none of them written', async () => {
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
      // With Redis too: its writes wait for the SQL commit.
      assert.equal(await storage.sessions.get('session-of-dropped'), undefined);
    });
  });

  test("a failure after a sign-in's session writes keeps the browser's earlier session", async () => {
    await withTestStorage(async (storage) => {
      const earlier = await userAndSession(storage, 'returning', null, 1);
      await storage.sessions.create(earlier);
      await assert.rejects(
        storage.writeTogether(async (stores) => {
          // What startSession does (session-service.ts): the earlier one ended, a new one made.
          await stores.sessions.delete(earlier.idHash);
          await stores.sessions.create({ ...earlier, idHash: 'replacing', createdAt: 10 });
          await stores.users.recordSignIn(earlier.userRowId, 10);
          throw refused;
        }),
        refused,
      );
      assert.deepEqual(await storage.sessions.get(earlier.idHash), earlier);
      assert.equal(await storage.sessions.get('replacing'), undefined);
      assert.equal((await storage.users.findByUserId('returning'))?.lastSignInAt, null);
    });
  });

  test("a unit's reads of sessions see its own writes", async () => {
    await withTestStorage(async (storage) => {
      const session = await userAndSession(storage, 'reader', 'corp', 10);
      await storage.sessions.create({ ...session, idHash: 'ended-within' });
      await storage.writeTogether(async (stores) => {
        await stores.sessions.create(session);
        assert.deepEqual(await stores.sessions.get(session.idHash), session);
        await stores.sessions.delete('ended-within');
        assert.equal(await stores.sessions.get('ended-within'), undefined);
      });
      assert.deepEqual(await storage.sessions.get(session.idHash), session);
      assert.equal(await storage.sessions.get('ended-within'), undefined);
      // Ending the user's sessions finds the one made and not the one ended.
      assert.equal(await storage.sessions.deleteForUser(session.userRowId), 1);
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

  test("a unit's change to a user reaches every instance's revocation feed once it commits", async () => {
    await withTestStorage(async (storage) => {
      const feed = storage.revocations;
      assert.ok(feed, 'every backend has a revocation feed');
      const seen: Revocation[] = [];
      feed.listen((revocation) => seen.push(revocation));
      const { user } = await storage.users.insertIfAbsent(
        { userId: 'moved', sourceEntryId: null },
        1,
      );
      // A sign-in that brings the provider's new attributes (provision-user.ts).
      await storage.writeTogether((stores) =>
        stores.users.updateAttributes(user.id, { department: 'support' }, 3),
      );
      feed.catchUp();
      assert.deepEqual(
        seen.filter((revocation) => revocation.scope === 'user'),
        [{ scope: 'user', userRowId: user.id }],
      );
    });
  });
});
