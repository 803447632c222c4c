import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { json, withApi } from './test-support/api-fixtures.js';

interface UserPage {
  users: Record<string, unknown>[];
  total: number;
}
interface ErrorBody {
  error: { code: string; message: string };
}

describe('admin API: users', () => {
  test('list with search and paging; never the password hash', async () => {
    await withApi(async (api) => {
      const at = api.gateway.clock();
      for (const userId of ['alice', 'bob', 'carol']) {
        await api.storage.users.insertIfAbsent(
          {
            userId,
            sourceEntryId: null,
            email: `${userId}@example.com`,
            passwordHash: 'HASH-must-not-leak',
          },
          at,
        );
      }
      const all = await api.inject({ method: 'GET', url: '/_sso/api/users', headers: api.token });
      assert.equal(all.statusCode, 200);
      assert.equal(all.headers['cache-control'], 'no-store');
      assert.equal(json<UserPage>(all).total, 3);
      assert.doesNotMatch(all.body, /HASH-must-not-leak|passwordHash/);
      const [alice] = json<UserPage>(all).users;
      assert.deepEqual(Object.keys(alice ?? {}).sort(), [
        'createdAt',
        'department',
        'email',
        'enabled',
        'extra',
        'id',
        'isAdmin',
        'lastSignInAt',
        'mobile',
        'sourceEntryId',
        'updatedAt',
        'userId',
        'userName',
      ]);

      const search = await api.inject({
        method: 'GET',
        url: '/_sso/api/users?search=BOB',
        headers: api.token,
      });
      assert.deepEqual(
        json<UserPage>(search).users.map((u) => u.userId),
        ['bob'],
      );
      const page = await api.inject({
        method: 'GET',
        url: '/_sso/api/users?limit=1&offset=1',
        headers: api.token,
      });
      assert.equal(json<UserPage>(page).users.length, 1);
      assert.equal(json<UserPage>(page).total, 3);
    });
  });

  test('bad query parameters name the field', async () => {
    await withApi(async (api) => {
      const cases: [string, RegExp][] = [
        ['limit=0', /query\.limit: must be at least 1/],
        ['limit=201', /query\.limit: must be at most 200/],
        ['offset=-1', /query\.offset: must be a whole number/],
        ['limit=1&limit=2', /query\.limit/],
        ['color=red', /query\.color: is not an accepted parameter/],
      ];
      for (const [query, message] of cases) {
        const response = await api.inject({
          method: 'GET',
          url: `/_sso/api/users?${query}`,
          headers: api.token,
        });
        assert.equal(response.statusCode, 400, query);
        assert.equal(json<ErrorBody>(response).error.code, 'request_invalid');
        assert.match(json<ErrorBody>(response).error.message, message);
      }
      const badId = await api.inject({
        method: 'GET',
        url: '/_sso/api/users/abc',
        headers: api.token,
      });
      assert.equal(badId.statusCode, 400);
      assert.match(json<ErrorBody>(badId).error.message, /^path\.id:/);
    });
  });

  test('read one user; an unknown one is not_found', async () => {
    await withApi(async (api) => {
      const { user } = await api.storage.users.insertIfAbsent(
        { userId: 'dave', sourceEntryId: null },
        0,
      );
      const read = await api.inject({
        method: 'GET',
        url: `/_sso/api/users/${user.id}`,
        headers: api.token,
      });
      assert.equal(read.statusCode, 200);
      assert.equal(json<{ user: Record<string, unknown> }>(read).user.userId, 'dave');
      assert.equal(
        json<{ user: Record<string, unknown> }>(read).user.createdAt,
        '1970-01-01T00:00:00.000Z',
      );
      const missing = await api.inject({
        method: 'GET',
        url: '/_sso/api/users/999',
        headers: api.token,
      });
      assert.equal(missing.statusCode, 404);
      assert.equal(json<ErrorBody>(missing).error.code, 'not_found');
      const disable = await api.inject({
        method: 'POST',
        url: '/_sso/api/users/999/disable',
        headers: api.token,
      });
      assert.equal(disable.statusCode, 404);
    });
  });

  test("disable ends the user's sessions at once; enable lets them sign in again", async () => {
    await withApi(async (api) => {
      const victim = await api.signIn('erin', false);
      const me = await api.storage.users.findByUserId('erin');
      assert.ok(me);
      const { cookie, csrf } = await api.signIn('root', true);
      const disabled = await api.inject({
        method: 'POST',
        url: `/_sso/api/users/${me.id}/disable`,
        headers: { ...cookie, ...csrf },
      });
      assert.equal(disabled.statusCode, 200);
      assert.equal(json<{ user: { enabled: boolean } }>(disabled).user.enabled, false);
      const [event] = await api.storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.deepEqual(
        { userId: event?.userId, actor: event?.actor, detail: event?.detail },
        { userId: 'erin', actor: 'root', detail: { action: 'disable', sessionsEnded: 1 } },
      );
      // Her session is gone: the API now sees no credentials at all.
      const after = await api.inject({
        method: 'GET',
        url: '/_sso/api/entries',
        headers: victim.cookie,
      });
      assert.equal(after.statusCode, 401);

      const noCsrf = await api.inject({
        method: 'POST',
        url: `/_sso/api/users/${me.id}/enable`,
        headers: cookie,
      });
      assert.equal(noCsrf.statusCode, 403);
      const enabled = await api.inject({
        method: 'POST',
        url: `/_sso/api/users/${me.id}/enable`,
        headers: api.token,
      });
      assert.equal(json<{ user: { enabled: boolean } }>(enabled).user.enabled, true);
      assert.equal((await api.storage.users.get(me.id))?.enabled, true);
    });
  });
});
