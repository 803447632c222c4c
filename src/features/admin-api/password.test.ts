import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../local-accounts/password-hash.js';
import type { ApiFixture } from './test-support/api-fixtures.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { weakPasswordReason } from './password-routes.js';

interface ErrorBody {
  error: { code: string; message: string; detail?: string };
}

const current = 'the old password 1';

/** A local administrator with a password, signed in twice (two browsers). */
async function localAdmin(api: ApiFixture) {
  const first = await api.signIn('root', true);
  const second = await api.signIn('root', true);
  const user = await api.storage.users.findByUserId('root');
  assert.ok(user);
  await api.storage.users.setPasswordHash(user.id, await hashPassword(current), 0);
  return { first, second, rowId: user.id };
}

function change(
  api: ApiFixture,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) {
  return api.inject({ method: 'POST', url: '/_sso/api/me/password', headers, payload });
}

describe('admin API: changing your own password', () => {
  test('the right current password and a strong new one: saved, other sessions end, audited', async () => {
    await withApi(async (api) => {
      const { first, second, rowId } = await localAdmin(api);
      const response = await change(
        api,
        { ...first.cookie, ...first.csrf },
        { currentPassword: current, newPassword: 'a much better passphrase' },
      );
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(json(response), { sessionsEnded: 1 });
      const stored = await api.storage.users.get(rowId);
      assert.ok(stored?.passwordHash);
      assert.equal(await verifyPassword('a much better passphrase', stored.passwordHash), true);
      assert.equal(await verifyPassword(current, stored.passwordHash), false);

      const still = await api.inject({ method: 'GET', url: '/_sso/me', headers: first.cookie });
      assert.equal(still.statusCode, 200, 'the session that changed it stays');
      const ended = await api.inject({ method: 'GET', url: '/_sso/me', headers: second.cookie });
      assert.equal(ended.statusCode, 401, 'the other session ended');

      const [event] = await api.storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.deepEqual(
        {
          userId: event?.userId,
          actor: event?.actor,
          outcome: event?.outcome,
          detail: event?.detail,
        },
        {
          userId: 'root',
          actor: 'root',
          outcome: 'success',
          detail: { action: 'change_password', sessionsEnded: 1 },
        },
      );
      assert.ok(!api.bodies.some((body) => body.includes('better passphrase')));
    });
  });

  test('a wrong current password: 403 password_wrong, audited, nothing changes', async () => {
    await withApi(async (api) => {
      const { first, second, rowId } = await localAdmin(api);
      const response = await change(
        api,
        { ...first.cookie, ...first.csrf },
        { currentPassword: 'not it at all', newPassword: 'a much better passphrase' },
      );
      assert.equal(response.statusCode, 403);
      assert.equal(json<ErrorBody>(response).error.code, 'password_wrong');
      const stored = await api.storage.users.get(rowId);
      assert.equal(await verifyPassword(current, stored?.passwordHash ?? ''), true);
      const other = await api.inject({ method: 'GET', url: '/_sso/me', headers: second.cookie });
      assert.equal(other.statusCode, 200);
      const [event] = await api.storage.audit.list({ kind: 'user_change', limit: 1 });
      assert.equal(event?.outcome, 'failure');
      assert.equal(event.code, 'password_wrong');
    });
  });

  test('repeated wrong current passwords are slowed down like sign-ins: 429', async () => {
    await withApi(async (api) => {
      const { first } = await localAdmin(api);
      const headers = { ...first.cookie, ...first.csrf };
      const codes: string[] = [];
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const response = await change(api, headers, {
          currentPassword: `guess ${attempt}`,
          newPassword: 'a much better passphrase',
        });
        codes.push(json<ErrorBody>(response).error.code);
      }
      assert.equal(codes[0], 'password_wrong');
      assert.ok(codes.includes('rate_limited'), codes.join());
    });
  });

  test('a weak new password: 400 password_weak with the reason', async () => {
    await withApi(async (api) => {
      const { first } = await localAdmin(api);
      for (const [newPassword, reason] of [
        ['short', /at least 12 characters/],
        [current, /differ from the current/],
        ['root-password-2024', /user id/],
      ] as const) {
        const response = await change(
          api,
          { ...first.cookie, ...first.csrf },
          { currentPassword: current, newPassword },
        );
        assert.equal(response.statusCode, 400, newPassword);
        const { error } = json<ErrorBody>(response);
        assert.equal(error.code, 'password_weak');
        assert.match(error.detail ?? '', reason);
      }
    });
  });

  test('no CSRF header: 403 csrf_failed; an API token: 409 password_not_local', async () => {
    await withApi(async (api) => {
      const { first } = await localAdmin(api);
      const body = { currentPassword: current, newPassword: 'a much better passphrase' };
      const noCsrf = await change(api, first.cookie, body);
      assert.equal(json<ErrorBody>(noCsrf).error.code, 'csrf_failed');
      const byToken = await change(api, api.token, body);
      assert.equal(byToken.statusCode, 409);
      assert.equal(json<ErrorBody>(byToken).error.code, 'password_not_local');
      const shape = await change(api, { ...first.cookie, ...first.csrf }, { newPassword: 1 });
      assert.equal(json<ErrorBody>(shape).error.code, 'request_invalid');
    });
  });

  test('the strength rule alone', () => {
    assert.equal(weakPasswordReason('correct horse battery', 'old', 'alice'), undefined);
    assert.match(weakPasswordReason('x'.repeat(1025), 'old', 'alice') ?? '', /at most 1024/);
    assert.match(weakPasswordReason('MyALICEpassword!', 'old', 'alice') ?? '', /user id/);
  });
});
