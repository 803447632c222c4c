import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isSsogateError } from '../../core/index.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';

describe('UserStore', () => {
  test('insertIfAbsent creates once, then returns the existing row untouched', async () => {
    await withTestStorage(async ({ users }) => {
      const first = await users.insertIfAbsent(
        {
          userId: 'alice',
          sourceEntryId: 'corp',
          userName: 'Alice',
          email: 'alice@example.com',
          extra: { title: 'Dr', tags: ['a', 1, null], nested: { deep: true } },
        },
        100,
      );
      assert.equal(first.created, true);
      assert.deepEqual(first.user, {
        id: first.user.id,
        userId: 'alice',
        sourceEntryId: 'corp',
        userName: 'Alice',
        email: 'alice@example.com',
        mobile: null,
        department: null,
        enabled: true,
        isAdmin: false,
        passwordHash: null,
        extra: { title: 'Dr', tags: ['a', 1, null], nested: { deep: true } },
        groups: [],
        createdAt: 100,
        updatedAt: 100,
        lastSignInAt: null,
      });
      const again = await users.insertIfAbsent(
        { userId: 'alice', sourceEntryId: 'x', email: 'y' },
        200,
      );
      assert.equal(again.created, false);
      assert.deepEqual(again.user, first.user);
    });
  });

  test('20 concurrent first sign-ins of one new user make one row', async () => {
    await withTestStorage(async ({ users }) => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          users.insertIfAbsent({ userId: 'racer', sourceEntryId: 'corp', userName: `n${i}` }, i),
        ),
      );
      assert.equal(results.filter((r) => r.created).length, 1);
      assert.equal(new Set(results.map((r) => r.user.id)).size, 1);
      assert.equal((await users.list({ limit: 100, offset: 0 })).total, 1);
    });
  });

  test('local accounts: admin flag and password hash', async () => {
    await withTestStorage(async ({ users }) => {
      const { user } = await users.insertIfAbsent(
        { userId: 'admin', sourceEntryId: null, isAdmin: true, passwordHash: 'h1' },
        1,
      );
      assert.equal(user.isAdmin, true);
      assert.equal(user.passwordHash, 'h1');
      assert.equal(user.sourceEntryId, null);
      assert.equal(await users.setPasswordHash(user.id, 'h2', 2), true);
      assert.equal((await users.get(user.id))?.passwordHash, 'h2');
      assert.equal(await users.setPasswordHash(9999, 'h', 2), false);
    });
  });

  test('get and findByUserId', async () => {
    await withTestStorage(async ({ users }) => {
      const { user } = await users.insertIfAbsent({ userId: 'bob', sourceEntryId: null }, 1);
      assert.equal((await users.get(user.id))?.userId, 'bob');
      assert.equal((await users.findByUserId('bob'))?.id, user.id);
      assert.equal(await users.get(user.id + 1), undefined);
      assert.equal(await users.findByUserId('BOB'), undefined);
    });
  });

  test('updateAttributes writes only the given columns', async () => {
    await withTestStorage(async ({ users }) => {
      const { user } = await users.insertIfAbsent(
        {
          userId: 'c',
          sourceEntryId: 'e',
          userName: 'C',
          email: 'c@x',
          mobile: '1',
          extra: { a: 1 },
        },
        1,
      );
      const updated = await users.updateAttributes(
        user.id,
        { email: 'c@y', department: 'R&D', enabled: false, extra: { b: 2 } },
        5,
      );
      assert.equal(updated.userName, 'C');
      assert.equal(updated.email, 'c@y');
      assert.equal(updated.mobile, '1');
      assert.equal(updated.department, 'R&D');
      assert.equal(updated.enabled, false);
      assert.deepEqual(updated.extra, { b: 2 });
      assert.equal(updated.createdAt, 1);
      assert.equal(updated.updatedAt, 5);
      assert.deepEqual(await users.get(user.id), updated);
      await assert.rejects(users.updateAttributes(9999, {}, 5), (error: unknown) => {
        return isSsogateError(error) && error.code === 'not_found';
      });
    });
  });

  test('extra comes back as plain data: __proto__ is an own key, not a prototype', async () => {
    await withTestStorage(async ({ users }) => {
      const extra = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "x"}') as Record<
        string,
        never
      >;
      const { user } = await users.insertIfAbsent({ userId: 'p', sourceEntryId: 'e', extra }, 1);
      const read = await users.get(user.id);
      assert.ok(read !== undefined);
      assert.equal(Object.hasOwn(read.extra, '__proto__'), true);
      assert.equal(Object.getPrototypeOf(read.extra), Object.prototype);
      assert.equal(read.extra.constructor, 'x');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });

  test('findForSignIn reads the row with its sign-in written; a rollback takes the time back', async () => {
    await withTestStorage(async (storage) => {
      const { users } = storage;
      const { user, created } = await users.insertIfAbsent({ userId: 'f', sourceEntryId: 'e' }, 1);
      assert.equal(created, true);
      assert.deepEqual(await users.get(user.id), user, 'the inserted row as the insert gave it');
      const found = await users.findForSignIn('f', 7);
      assert.deepEqual(found, { ...user, lastSignInAt: 7 });
      assert.deepEqual(await users.get(user.id), found);
      assert.equal(await users.findForSignIn('F', 8), undefined);
      await assert.rejects(
        storage.writeTogether(async (stores) => {
          assert.equal((await stores.users.findForSignIn('f', 9))?.lastSignInAt, 9);
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.equal((await users.get(user.id))?.lastSignInAt, 7);
    });
  });

  test('recordSignIn, setEnabled, setAdmin', async () => {
    await withTestStorage(async ({ users }) => {
      const { user } = await users.insertIfAbsent({ userId: 'd', sourceEntryId: 'e' }, 1);
      await users.recordSignIn(user.id, 7);
      let read = await users.get(user.id);
      assert.ok(read !== undefined);
      assert.equal(read.lastSignInAt, 7);
      assert.equal(read.updatedAt, 1);
      assert.equal(await users.setEnabled(user.id, false, 8), true);
      assert.equal(await users.setAdmin(user.id, true, 9), true);
      read = await users.get(user.id);
      assert.ok(read !== undefined);
      assert.equal(read.enabled, false);
      assert.equal(read.isAdmin, true);
      assert.equal(read.updatedAt, 9);
      assert.equal(await users.setEnabled(9999, true, 1), false);
      assert.equal(await users.setAdmin(9999, true, 1), false);
    });
  });

  test('list pages, counts and searches case-insensitively', async () => {
    await withTestStorage(async ({ users }) => {
      const people = [
        { userId: 'ann', userName: 'Ann Smith', email: 'ann@corp.example' },
        { userId: 'ben', userName: 'Ben Jones', email: 'BEN@Other.example' },
        { userId: 'cat_1', userName: null, email: null },
        { userId: 'dan', userName: '100% Dan', email: 'dan@corp.example' },
      ];
      for (const p of people) {
        await users.insertIfAbsent(
          {
            userId: p.userId,
            sourceEntryId: 'e',
            ...(p.userName === null ? {} : { userName: p.userName }),
            ...(p.email === null ? {} : { email: p.email }),
          },
          1,
        );
      }
      const ids = async (search: string | undefined, limit = 10, offset = 0) => {
        const { users: found, total } = await users.list({
          limit,
          offset,
          ...(search === undefined ? {} : { search }),
        });
        return { ids: found.map((u) => u.userId), total };
      };
      assert.deepEqual(await ids(undefined), { ids: ['ann', 'ben', 'cat_1', 'dan'], total: 4 });
      assert.deepEqual(await ids(undefined, 2, 1), { ids: ['ben', 'cat_1'], total: 4 });
      assert.deepEqual(await ids(''), { ids: ['ann', 'ben', 'cat_1', 'dan'], total: 4 });
      assert.deepEqual(await ids('CORP'), { ids: ['ann', 'dan'], total: 2 });
      assert.deepEqual(await ids('other'), { ids: ['ben'], total: 1 });
      assert.deepEqual(await ids('smith'), { ids: ['ann'], total: 1 });
      // LIKE wildcards in the search are literal characters.
      assert.deepEqual(await ids('_'), { ids: ['cat_1'], total: 1 });
      assert.deepEqual(await ids('%'), { ids: ['dan'], total: 1 });
      assert.deepEqual(await ids('corp', 1, 1), { ids: ['dan'], total: 2 });
    });
  });

  test('countAdmins', async () => {
    await withTestStorage(async ({ users }) => {
      assert.equal(await users.countAdmins(), 0);
      const a = await users.insertIfAbsent({ userId: 'a', sourceEntryId: null, isAdmin: true }, 1);
      await users.insertIfAbsent({ userId: 'b', sourceEntryId: null }, 1);
      assert.equal(await users.countAdmins(), 1);
      await users.setAdmin(a.user.id, false, 2);
      assert.equal(await users.countAdmins(), 0);
    });
  });

  test('removeAdminAccess never leaves no enabled administrator', async () => {
    await withTestStorage(async ({ users }) => {
      const admin = async (userId: string) =>
        (await users.insertIfAbsent({ userId, sourceEntryId: null, isAdmin: true }, 1)).user.id;
      const a = await admin('a');
      assert.equal(await users.removeAdminAccess(a, 'revoke_admin', 2), 'last_admin');
      assert.equal(await users.removeAdminAccess(a, 'disable', 2), 'last_admin');
      assert.equal(await users.removeAdminAccess(999, 'disable', 2), 'not_found');
      const b = await admin('b');
      assert.equal(await users.removeAdminAccess(a, 'disable', 3), 'done');
      assert.deepEqual(
        [(await users.get(a))?.enabled, (await users.get(a))?.updatedAt],
        [false, 3],
      );
      // a is disabled, so b is the last enabled administrator.
      assert.equal(await users.removeAdminAccess(b, 'revoke_admin', 4), 'last_admin');
      // Forty removals at once, twenty each way: exactly one administrator
      // stays, and none fails (on PostgreSQL, a call that locked rows in
      // another order than the next one could deadlock). Several rounds.
      for (let round = 0; round < 5; round++) {
        for (const id of [a, b]) {
          await users.setEnabled(id, true, 5);
          await users.setAdmin(id, true, 5);
        }
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            users.removeAdminAccess(i % 2 === 0 ? a : b, i % 4 < 2 ? 'revoke_admin' : 'disable', 6),
          ),
        );
        assert.ok(results.includes('last_admin'));
        assert.equal(
          (await Promise.all([users.get(a), users.get(b)])).filter(
            (user) => user?.isAdmin === true && user.enabled,
          ).length,
          1,
        );
      }
    });
  });
});
