import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { parsedEntry } from '../../../core/test-support/entries.js';
import { newSecretBox, withTempDir } from '../../../test-support/storage-values.js';
import type { Revocation, RevocationFeed } from '../session-revocations.js';
import type { Storage } from '../types.js';
import { openSqliteStorage } from './open-sqlite-storage.js';

function feedOf(storage: Storage): RevocationFeed {
  assert.ok(storage.revocations !== undefined, 'SQLite storage has a revocation feed');
  return storage.revocations;
}

/** The revocations a storage's feed reports, in order. */
function heardBy(storage: Storage): Revocation[] {
  const heard: Revocation[] = [];
  feedOf(storage).listen((revocation) => heard.push(revocation));
  return heard;
}

async function withFile(run: (filename: string) => Promise<void>): Promise<void> {
  await withTempDir((dir) => run(join(dir, 'gateway.db')));
}

const session = (idHash: string, userRowId: number, entryId: string | null = null) => ({
  idHash,
  userRowId,
  entryId,
  createdAt: 1,
  lastSeenAt: 1,
  expiresAt: 10_000,
});

describe('SQLite revocation feed', () => {
  test("this process's revocations are heard when the write resolves; other writes say nothing", async () => {
    await withFile(async (filename) => {
      const storage = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      try {
        const heard = heardBy(storage);
        await storage.entries.create(parsedEntry('corp'), 1);
        const { user: ann } = await storage.users.insertIfAbsent(
          { userId: 'ann', sourceEntryId: 'corp', email: 'ann@example.test' },
          1,
        );
        const { user: bob } = await storage.users.insertIfAbsent(
          { userId: 'bob', sourceEntryId: null },
          1,
        );
        await storage.sessions.create(session('a1', ann.id, 'corp'));
        await storage.sessions.create(session('a2', ann.id, 'corp'));
        await storage.sessions.create(session('b1', bob.id));
        // What a sign-in writes: the same attributes again, its time, a
        // session's activity, an audit row, a pending sign-in.
        await storage.users.updateAttributes(ann.id, { email: 'ann@example.test' }, 2);
        await storage.users.recordSignIn(ann.id, 2);
        await storage.sessions.touch('a1', 2);
        await storage.audit.append({
          at: 2,
          kind: 'sign_in',
          outcome: 'success',
          entryId: 'corp',
          userId: 'ann',
          actor: null,
          code: null,
          reference: null,
          durationMs: 1,
          detail: null,
        });
        await storage.pendingSignIns.save({
          stateHash: 's',
          entryId: 'corp',
          returnTo: '/',
          bindingHash: 'b',
          redirectUri: 'http://127.0.0.1/cb',
          codeVerifier: null,
          createdAt: 2,
          expiresAt: 1000,
        });
        assert.deepEqual(heard, []);

        await storage.sessions.delete('b1');
        assert.deepEqual(heard.splice(0), [{ scope: 'session', idHash: 'b1' }]);
        await storage.users.updateAttributes(ann.id, { department: 'Sales' }, 3);
        assert.deepEqual(heard.splice(0), [{ scope: 'user', userRowId: ann.id }]);
        await storage.users.setEnabled(bob.id, false, 3);
        await storage.users.setAdmin(ann.id, true, 3);
        assert.deepEqual(heard.splice(0), [
          { scope: 'user', userRowId: bob.id },
          { scope: 'user', userRowId: ann.id },
        ]);
        await storage.users.setAdmin(ann.id, true, 4); // unchanged
        assert.deepEqual(heard, []);
        assert.equal(await storage.sessions.deleteForUser(ann.id), 2);
        assert.deepEqual(
          heard.splice(0).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
          [
            { scope: 'session', idHash: 'a1' },
            { scope: 'session', idHash: 'a2' },
          ],
        );
        await storage.entries.update('corp', parsedEntry('corp', { enabled: false }), 5);
        assert.deepEqual(heard.splice(0), [{ scope: 'entry', entryId: 'corp' }]);
        await storage.entries.delete('corp');
        assert.deepEqual(heard.splice(0), [{ scope: 'entry', entryId: 'corp' }]);
      } finally {
        await storage.close();
      }
    });
  });

  test("another connection's revocations are heard from the next turn, and only those", async () => {
    await withFile(async (filename) => {
      const server = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      const other = new BetterSqlite3(filename);
      try {
        other.pragma('busy_timeout = 5000');
        const heard = heardBy(server);
        const { user } = await server.users.insertIfAbsent(
          { userId: 'cy', sourceEntryId: null },
          1,
        );
        await server.sessions.create(session('c1', user.id));
        await server.sessions.create(session('c2', user.id));
        await nextTurn();
        assert.equal(feedOf(server).catchUp(), true);

        // A sign-in elsewhere: a new user, a session, an audit row.
        other
          .prepare(
            'INSERT INTO users (user_id, created_at, updated_at) VALUES (?, 1, 1) RETURNING id',
          )
          .run('dee');
        other
          .prepare(`INSERT INTO audit_events (at, kind, outcome) VALUES (2, 'sign_in', 'success')`)
          .run();
        await nextTurn();
        assert.equal(feedOf(server).catchUp(), true);
        assert.deepEqual(heard, []);

        other.prepare('DELETE FROM sessions WHERE id_hash = ?').run('c1');
        other.prepare('UPDATE users SET enabled = 0 WHERE id = ?').run(user.id);
        await nextTurn();
        feedOf(server).catchUp();
        assert.deepEqual(heard, [
          { scope: 'session', idHash: 'c1' },
          { scope: 'user', userRowId: user.id },
        ]);
      } finally {
        other.close();
        await server.close();
      }
    });
  });

  test('a reader that missed trimmed rows forgets everything', async () => {
    await withFile(async (filename) => {
      const server = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      const other = new BetterSqlite3(filename);
      try {
        const heard = heardBy(server);
        const log = other.prepare(
          `INSERT INTO session_revocations (scope, subject) VALUES ('session', ?)`,
        );
        for (const hash of ['x1', 'x2', 'x3']) log.run(hash);
        other.prepare('DELETE FROM session_revocations WHERE subject IN (?, ?)').run('x1', 'x2');
        await nextTurn();
        feedOf(server).catchUp();
        assert.deepEqual(heard, [{ scope: 'all' }, { scope: 'session', idHash: 'x3' }]);
      } finally {
        other.close();
        await server.close();
      }
    });
  });
});
