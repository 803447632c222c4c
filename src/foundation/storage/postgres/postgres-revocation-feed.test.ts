import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { withTestBackend } from '../../../test-support/test-backend.js';
import { newSecretBox } from '../../../test-support/storage-values.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import type { Revocation } from '../session-revocations.js';
import type { Storage } from '../types.js';
import { openPostgresStorage } from './open-postgres-storage.js';
import { listenerApplicationName } from './postgres-revocation-feed.js';

const skip =
  (process.env.SSOGATE_TEST_DATABASE_URL ?? '') === ''
    ? 'PostgreSQL only: set SSOGATE_TEST_DATABASE_URL'
    : false;

function heardBy(storage: Storage): Revocation[] {
  const heard: Revocation[] = [];
  storage.revocations?.listen((revocation) => heard.push(revocation));
  return heard;
}

function last(heard: readonly Revocation[]): Revocation | undefined {
  return heard[heard.length - 1];
}

async function newUserRow(storage: Storage, userId: string): Promise<number> {
  const { user } = await storage.users.insertIfAbsent(
    { userId, sourceEntryId: null, userName: userId },
    Date.now(),
  );
  return user.id;
}

/**
 * Two instances' storage on one PostgreSQL database without Redis: what one
 * ends, the other has applied when the ending resolves; an instance whose
 * listening connection is cut forgets everything and trusts nothing until
 * it listens again.
 */
describe('PostgreSQL revocation feed', { skip, timeout: 60_000 }, () => {
  test('an ending on one instance is applied by the other when it resolves', async () => {
    await withTestBackend(async ({ env }) => {
      const url = env.SSOGATE_DATABASE_URL ?? '';
      const secretBox = newSecretBox();
      const one = await openPostgresStorage({ url, secretBox, announceRevocations: true });
      const two = await openPostgresStorage({ url, secretBox, announceRevocations: true });
      try {
        const heardByOne = heardBy(one);
        const heardByTwo = heardBy(two);
        const row = await newUserRow(one, 'pat');
        const now = Date.now();
        const session = {
          userRowId: row,
          entryId: null,
          createdAt: now,
          lastSeenAt: now,
          expiresAt: now + 60_000,
        };
        await one.sessions.create({ ...session, idHash: 'h1' });
        await one.sessions.create({ ...session, idHash: 'h2' });
        assert.deepEqual(heardByTwo, [], 'a sign-in announces nothing');

        await one.sessions.delete('h1');
        // No waiting: the ending resolved after two acknowledged it.
        assert.deepEqual(heardByTwo, [{ scope: 'session', idHash: 'h1' }]);
        assert.deepEqual(heardByOne, [{ scope: 'session', idHash: 'h1' }]);

        await two.users.setEnabled(row, false, Date.now());
        assert.deepEqual(last(heardByOne), { scope: 'user', userRowId: row });
        await two.sessions.deleteForUser(row);
        assert.deepEqual(last(heardByOne), { scope: 'user', userRowId: row });

        // In a transaction, announced once committed.
        const before = heardByTwo.length;
        await one.writeTogether(async (stores) => {
          await stores.users.updateAttributes(row, { email: 'pat@example.com' }, Date.now());
          assert.equal(heardByTwo.length, before, 'not before the commit');
        });
        assert.deepEqual(last(heardByTwo), { scope: 'user', userRowId: row });
        assert.equal(one.revocations?.catchUp(), true);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  });

  test('a lost listening connection forgets everything; trust returns once it listens again', async () => {
    await withTestBackend(async ({ env }) => {
      const url = env.SSOGATE_DATABASE_URL ?? '';
      const storage = await openPostgresStorage({
        url,
        secretBox: newSecretBox(),
        announceRevocations: true,
      });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const heard = heardBy(storage);
        const feed = storage.revocations;
        assert.ok(feed !== undefined);
        assert.equal(feed.catchUp(), true);
        // Every listening connection on this database is cut, this one's among them.
        await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
             where application_name = $1 and datname = current_database()`,
          [listenerApplicationName],
        );
        await waitUntil(() => heard.some((revocation) => revocation.scope === 'all'), {
          message: "'all' revoked while the listener was cut off",
          timeoutMs: 30_000,
        });
        assert.equal(feed.catchUp(), false, 'nothing trusted meanwhile');
        await waitUntil(() => feed.catchUp(), {
          message: 'the feed to listen again',
          timeoutMs: 30_000,
        });
        // Listening again: announcements are heard.
        const row = await newUserRow(storage, 'kim');
        await storage.users.setAdmin(row, true, Date.now());
        assert.deepEqual(last(heard), { scope: 'user', userRowId: row });
      } finally {
        await admin.end();
        await storage.close();
      }
    });
  });
});
