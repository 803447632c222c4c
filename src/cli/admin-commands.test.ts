import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdmin } from '../features/local-accounts/bootstrap-admin.js';
import { verifyPassword } from '../features/local-accounts/password-hash.js';
import type { Storage } from '../foundation/storage/types.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import { runCommand as run } from './test-support/run-command.js';

const now = Date.parse('2024-05-01T12:00:00Z');

async function adminWithSession(storage: Storage): Promise<number> {
  await bootstrapAdmin(storage.users, 'the-forgotten-password', now);
  const admin = await storage.users.findByUserId('admin');
  assert.ok(admin);
  await storage.sessions.create({
    idHash: 'admin-session',
    userRowId: admin.id,
    entryId: null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + 3_600_000,
  });
  return admin.id;
}

async function passwordHash(storage: Storage, userId: string): Promise<string> {
  const user = await storage.users.findByUserId(userId);
  assert.ok(user?.passwordHash);
  return user.passwordHash;
}

describe('ssogate admin reset-password', () => {
  test('prints a generated password once, sets it, ends the sessions and audits it', async () => {
    await withTestStorage(async (storage) => {
      await adminWithSession(storage);
      const { code, out, err } = await run(['admin', 'reset-password'], { storage });
      assert.equal(code, 0, err);
      const password = out.trim();
      assert.match(password, /^[\w-]{24}$/);
      assert.match(err, /not shown again/);
      assert.match(err, /Sessions ended: 1/);
      assert.ok(await verifyPassword(password, await passwordHash(storage, 'admin')));
      assert.equal(
        await verifyPassword('the-forgotten-password', await passwordHash(storage, 'admin')),
        false,
      );
      assert.equal(await storage.sessions.get('admin-session'), undefined);
      const [event] = await storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.equal(event?.actor, 'cli');
      assert.equal(event.userId, 'admin');
      assert.deepEqual(event.detail, {
        action: 'reset_password',
        sessionsEnded: 1,
        generated: true,
      });
      assert.doesNotMatch(JSON.stringify(event), new RegExp(password));
    });
  });

  test('--password-file sets the one line of the file; --username picks the account', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-reset-'));
    try {
      await withTestStorage(async (storage) => {
        await adminWithSession(storage);
        await storage.users.insertIfAbsent(
          {
            userId: 'ops',
            sourceEntryId: null,
            userName: 'Ops',
            isAdmin: true,
            passwordHash: null,
          },
          now,
        );
        const file = join(dir, 'password');
        await writeFile(file, 'chosen-by-the-operator\n');
        const { code, out, err } = await run(
          ['admin', 'reset-password', '--username', 'ops', '--password-file', file],
          { storage },
        );
        assert.equal(code, 0, err);
        assert.match(out, /Set the password of "ops"/);
        assert.doesNotMatch(out + err, /chosen-by-the-operator/);
        assert.ok(
          await verifyPassword('chosen-by-the-operator', await passwordHash(storage, 'ops')),
        );
        assert.ok(await storage.sessions.get('admin-session'), "admin's session goes on");
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('refuses an unknown account, an account of an entry and a short or missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-reset-'));
    try {
      await withTestStorage(async (storage) => {
        await adminWithSession(storage);
        await storage.users.insertIfAbsent(
          {
            userId: 'alice',
            sourceEntryId: 'corp',
            userName: 'Alice',
            isAdmin: false,
            passwordHash: null,
          },
          now,
        );
        const short = join(dir, 'short');
        await writeFile(short, 'short\n');
        const cases: [string[], RegExp][] = [
          [['--username', 'nobody'], /no local account "nobody"/],
          [['--username', 'alice'], /signs in through entry corp, not with a password/],
          [['--password-file', short], /shorter than 12 characters/],
          [['--password-file', join(dir, 'absent')], /ENOENT/],
        ];
        const before = await passwordHash(storage, 'admin');
        for (const [args, message] of cases) {
          const { code, err } = await run(['admin', 'reset-password', ...args], { storage });
          assert.equal(code, 1, args.join(' '));
          assert.match(err, message);
        }
        assert.equal(await passwordHash(storage, 'admin'), before);
        assert.ok(await storage.sessions.get('admin-session'));
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a wrong command line is a usage error', async () => {
    for (const argv of [
      ['admin'],
      ['admin', 'reset-password', 'extra'],
      ['admin', 'reset-password', '--name', 'x'],
      ['token', 'list', '--username', 'x'],
    ]) {
      const { code, err } = await run(argv);
      assert.equal(code, 2, argv.join(' '));
      assert.match(err, /Usage:/);
    }
  });
});
