import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiFixture } from './test-support/api-fixtures.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { sessionsEndedAnswer, userAnswer } from './response-schemas.js';

interface ErrorBody {
  error: { code: string; message: string; problems?: { field: string }[] };
}

async function call(api: ApiFixture, url: string, headers: Record<string, string> = api.token) {
  return api.inject({ method: 'POST', url, headers });
}

async function rowId(api: ApiFixture, userId: string): Promise<number> {
  const user = await api.storage.users.findByUserId(userId);
  assert.ok(user, userId);
  return user.id;
}

describe('admin API: user administration', () => {
  test('a JSON content type with no body is a route without a body; a malformed body says what is wrong', async () => {
    await withApi(async (api) => {
      await api.signIn('erin', false);
      const id = await rowId(api, 'erin');
      const headers = { ...api.token, 'content-type': 'application/json' };
      const empty = await call(api, `/_sso/api/users/${id}/end-sessions`, headers);
      assert.equal(empty.statusCode, 200, empty.body);
      const malformed = await api.inject({
        method: 'POST',
        url: `/_sso/api/users/${id}/lock`,
        headers,
        payload: '{"reason":',
      });
      assert.equal(malformed.statusCode, 400);
      const { error } = json<ErrorBody & { error: { detail?: string } }>(malformed);
      assert.equal(error.code, 'request_invalid');
      assert.equal(error.detail, 'the body is not valid JSON');
      assert.doesNotMatch(malformed.body, /reason/, 'the body is not echoed');
      assert.equal((await api.storage.users.findByUserId('erin'))?.enabled, true);
    });
  });

  test("lock ends the user's sessions and survives; unlock lets them in again", async () => {
    await withApi(async (api) => {
      const erin = await api.signIn('erin', false);
      await api.signIn('erin', false);
      const id = await rowId(api, 'erin');
      const locked = await call(api, `/_sso/api/users/${id}/lock`);
      assert.equal(locked.statusCode, 200);
      assert.equal(userAnswer.parse(json(locked)).user.enabled, false);
      const [event] = await api.storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.deepEqual(
        { userId: event?.userId, actor: event?.actor, detail: event?.detail },
        { userId: 'erin', actor: 'token:ci', detail: { action: 'lock', sessionsEnded: 2 } },
      );
      const after = await api.inject({ method: 'GET', url: '/_sso/me', headers: erin.cookie });
      assert.equal(after.statusCode, 401);

      const unlocked = await call(api, `/_sso/api/users/${id}/unlock`);
      assert.equal(userAnswer.parse(json(unlocked)).user.enabled, true);
      assert.equal((await api.storage.users.get(id))?.enabled, true);
    });
  });

  test('grant and revoke administrator rights; the last administrator stays', async () => {
    await withApi(async (api) => {
      const root = await api.signIn('root', true);
      await api.signIn('bob', false);
      const rootId = await rowId(api, 'root');
      const bobId = await rowId(api, 'bob');

      const lastRevoke = await call(api, `/_sso/api/users/${rootId}/revoke-admin`);
      assert.equal(lastRevoke.statusCode, 409);
      assert.equal(json<ErrorBody>(lastRevoke).error.code, 'last_admin');
      const lastLock = await call(api, `/_sso/api/users/${rootId}/lock`);
      assert.equal(json<ErrorBody>(lastLock).error.code, 'last_admin');
      assert.equal((await api.storage.users.get(rootId))?.isAdmin, true);
      assert.equal((await api.storage.users.get(rootId))?.enabled, true);

      const granted = await call(api, `/_sso/api/users/${bobId}/grant-admin`);
      assert.equal(userAnswer.parse(json(granted)).user.isAdmin, true);
      assert.deepEqual(
        (await api.storage.audit.list({ kind: 'user_change', limit: 1 }))[0]?.detail,
        { action: 'grant_admin' },
      );

      // At the console, root cannot shut themselves out, even with another admin.
      const self = await call(api, `/_sso/api/users/${rootId}/revoke-admin`, {
        ...root.cookie,
        ...root.csrf,
      });
      assert.equal(self.statusCode, 409);
      assert.equal(json<ErrorBody>(self).error.code, 'self_lockout');
      const selfLock = await call(api, `/_sso/api/users/${rootId}/lock`, {
        ...root.cookie,
        ...root.csrf,
      });
      assert.equal(json<ErrorBody>(selfLock).error.code, 'self_lockout');

      const revoked = await call(api, `/_sso/api/users/${bobId}/revoke-admin`, {
        ...root.cookie,
        ...root.csrf,
      });
      assert.equal(revoked.statusCode, 200);
      assert.equal(userAnswer.parse(json(revoked)).user.isAdmin, false);
      const [event] = await api.storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.deepEqual([event?.actor, event?.detail], ['root', { action: 'revoke_admin' }]);
    });
  });

  test('a locked administrator does not count as the remaining one', async () => {
    await withApi(async (api) => {
      await api.signIn('root', true);
      await api.signIn('ops', true);
      const rootId = await rowId(api, 'root');
      const opsId = await rowId(api, 'ops');
      assert.equal((await call(api, `/_sso/api/users/${opsId}/lock`)).statusCode, 200);
      const refused = await call(api, `/_sso/api/users/${rootId}/revoke-admin`);
      assert.equal(json<ErrorBody>(refused).error.code, 'last_admin');
      // Two revocations at once: one of them must fail.
      assert.equal((await call(api, `/_sso/api/users/${opsId}/unlock`)).statusCode, 200);
      const both = await Promise.all([
        call(api, `/_sso/api/users/${rootId}/revoke-admin`),
        call(api, `/_sso/api/users/${opsId}/revoke-admin`),
      ]);
      assert.deepEqual(both.map((response) => response.statusCode).sort(), [200, 409]);
      assert.equal(await api.storage.users.countAdmins(), 1);
    });
  });

  test('end-sessions signs a user out everywhere', async () => {
    await withApi(async (api) => {
      const first = await api.signIn('dave', false);
      await api.signIn('dave', false);
      const id = await rowId(api, 'dave');
      const ended = await call(api, `/_sso/api/users/${id}/end-sessions`);
      assert.equal(ended.statusCode, 200);
      assert.deepEqual(sessionsEndedAnswer.parse(json(ended)), { sessionsEnded: 2 });
      assert.equal(
        (await api.inject({ method: 'GET', url: '/_sso/me', headers: first.cookie })).statusCode,
        401,
      );
      assert.equal((await api.storage.users.get(id))?.enabled, true);
      const [event] = await api.storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.deepEqual(event?.detail, { action: 'end_sessions', sessionsEnded: 2 });
      const again = await call(api, `/_sso/api/users/${id}/end-sessions`);
      assert.deepEqual(json(again), { sessionsEnded: 0 });
    });
  });

  test('an unknown user is not_found; a bad id names path.id', async () => {
    await withApi(async (api) => {
      for (const action of [
        'lock',
        'unlock',
        'grant-admin',
        'revoke-admin',
        'end-sessions',
        'enable',
        'disable',
      ]) {
        const missing = await call(api, `/_sso/api/users/999/${action}`);
        assert.equal(missing.statusCode, 404, action);
        assert.equal(json<ErrorBody>(missing).error.code, 'not_found');
        const bad = await call(api, `/_sso/api/users/abc/${action}`);
        assert.equal(bad.statusCode, 400, action);
        assert.equal(json<ErrorBody>(bad).error.problems?.[0]?.field, 'path.id');
      }
    });
  });
});
