import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { tokenCreatedAnswer, tokenListAnswer } from './response-schemas.js';

interface ErrorBody {
  error: { code: string; message: string; problems?: { field: string }[] };
}

describe('admin API: tokens', () => {
  test('create shows the token once; it works; list never shows it; revoke stops it', async () => {
    await withApi(async (api) => {
      const { cookie, csrf } = await api.signIn('root', true);
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: { ...cookie, ...csrf },
        payload: { name: 'deploy' },
      });
      assert.equal(created.statusCode, 201);
      const { token, secret } = tokenCreatedAnswer.parse(json(created));
      assert.match(secret, /^ssg_[A-Za-z0-9_-]{43}$/);
      assert.equal(token.name, 'deploy');
      assert.equal(token.revokedAt, null);
      // Owned by the administrator who made it; without an expiry, it lasts SSOGATE_API_TOKEN_DAYS (90).
      assert.deepEqual(token.owner, { kind: 'user', name: 'root' });
      assert.equal(token.expiresAt, '2024-07-30T12:00:00.000Z');
      const stored = (await api.storage.apiTokens.list()).find((t) => t.id === token.id);
      assert.equal(stored?.tokenHash, sha256Base64url(secret));

      const [event] = await api.storage.audit.list({ kind: 'token_change', limit: 1 });
      assert.deepEqual(
        [event?.actor, event?.detail],
        [
          'root',
          {
            action: 'create',
            tokenId: token.id,
            name: 'deploy',
            owner: 'user:root',
            expiresAt: '2024-07-30T12:00:00.000Z',
          },
        ],
      );
      assert.doesNotMatch(JSON.stringify(event), new RegExp(secret));

      const bearer = { authorization: `Bearer ${secret}` };
      const list = await api.inject({ method: 'GET', url: '/_sso/api/tokens', headers: bearer });
      assert.equal(list.statusCode, 200);
      const { tokens } = tokenListAnswer.parse(json(list));
      assert.deepEqual(tokens.map((t) => t.name).sort(), ['ci', 'deploy']);
      // The list shows whose each token is, and its last use (this very call).
      const deploy = tokens.find((t) => t.name === 'deploy');
      assert.deepEqual(deploy?.owner, { kind: 'user', name: 'root' });
      assert.equal(deploy.lastUsedAt, '2024-05-01T12:00:00.000Z');
      assert.doesNotMatch(
        list.body,
        new RegExp(`${secret.slice(4)}|tokenHash|${stored.tokenHash}`),
      );

      const revoked = await api.inject({
        method: 'DELETE',
        url: `/_sso/api/tokens/${token.id}`,
        headers: api.token,
      });
      assert.equal(revoked.statusCode, 204);
      const [revocation] = await api.storage.audit.list({ kind: 'token_change', limit: 1 });
      assert.deepEqual(
        [revocation?.actor, revocation?.detail],
        ['token:ci', { action: 'revoke', tokenId: token.id }],
      );
      const refused = await api.inject({ method: 'GET', url: '/_sso/api/tokens', headers: bearer });
      assert.equal(refused.statusCode, 401);
      const again = await api.inject({
        method: 'DELETE',
        url: `/_sso/api/tokens/${token.id}`,
        headers: api.token,
      });
      assert.equal(again.statusCode, 404);
      assert.equal(json<ErrorBody>(again).error.code, 'not_found');
    });
  });

  test('a token made with a token has its owner, and ends with that owner', async () => {
    await withApi(async (api) => {
      const made = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: api.token,
        payload: { name: 'from-cli-token' },
      });
      assert.equal(made.statusCode, 201, made.body);
      // The fixture's token is owned by the service "cli", as ssogate token create makes it.
      assert.deepEqual(tokenCreatedAnswer.parse(json(made)).token.owner, {
        kind: 'service',
        name: 'cli',
      });

      const { cookie, csrf } = await api.signIn('root', true);
      const rootMade = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: { ...cookie, ...csrf },
        payload: { name: 'root-1' },
      });
      const first = { authorization: `Bearer ${tokenCreatedAnswer.parse(json(rootMade)).secret}` };
      const second = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: first,
        payload: { name: 'root-2' },
      });
      assert.equal(second.statusCode, 201, second.body);
      const { token, secret } = tokenCreatedAnswer.parse(json(second));
      assert.deepEqual(token.owner, { kind: 'user', name: 'root' });
      const root = await api.storage.users.findByUserId('root');
      assert.ok(root);
      await api.storage.users.setAdmin(root.id, false, api.gateway.clock());
      for (const headers of [first, { authorization: `Bearer ${secret}` }]) {
        const refused = await api.inject({ method: 'GET', url: '/_sso/api/users', headers });
        assert.equal(refused.statusCode, 401);
        assert.equal(json<ErrorBody>(refused).error.code, 'api_token_owner_revoked');
      }
      const [event] = await api.storage.audit.list({ kind: 'token_change', limit: 1 });
      assert.deepEqual(
        [event?.outcome, event?.code, event?.actor, event?.userId],
        ['failure', 'api_token_owner_revoked', 'token:root-2', 'root'],
      );
      assert.equal(event?.detail?.reason, 'its owner root is no longer an administrator');
    });
  });

  test('a token made before owners were recorded still works, is listed without an owner, and makes no tokens', async () => {
    await withApi(async (api) => {
      const old = 'ssg_old-token-0123456789abcdefghijklmnopqrstuvwxyz';
      await api.storage.apiTokens.create({
        id: 'old1',
        name: 'old',
        tokenHash: sha256Base64url(old),
        createdAt: api.gateway.clock(),
      });
      const headers = { authorization: `Bearer ${old}` };
      const list = await api.inject({ method: 'GET', url: '/_sso/api/tokens', headers });
      assert.equal(list.statusCode, 200);
      const { tokens } = tokenListAnswer.parse(json(list));
      assert.equal(tokens.find((t) => t.name === 'old')?.owner, null);
      const refused = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers,
        payload: { name: 'heir' },
      });
      assert.equal(refused.statusCode, 403);
      assert.equal(json<ErrorBody>(refused).error.code, 'forbidden');
    });
  });

  test('a token without expiry only when asked for ("never"); the default lifetime is a setting', async () => {
    await withApi(
      async (api) => {
        const create = (payload: object) =>
          api.inject({ method: 'POST', url: '/_sso/api/tokens', headers: api.token, payload });
        const never = await create({ name: 'forever', expiresAt: 'never' });
        assert.equal(never.statusCode, 201, never.body);
        assert.equal(tokenCreatedAnswer.parse(json(never)).token.expiresAt, null);
        const [event] = await api.storage.audit.list({ kind: 'token_change', limit: 1 });
        assert.equal(event?.detail?.expiresAt, 'never');
        const byDefault = await create({ name: 'default' });
        assert.equal(
          tokenCreatedAnswer.parse(json(byDefault)).token.expiresAt,
          '2024-05-08T12:00:00.000Z',
        );
        for (const expiresAt of [null, 'Never', '']) {
          const refused = await create({ name: 'x', expiresAt });
          assert.equal(refused.statusCode, 400, String(expiresAt));
          assert.equal(json<ErrorBody>(refused).error.problems?.[0]?.field, 'body.expiresAt');
        }
      },
      {},
      { SSOGATE_API_TOKEN_DAYS: '7' },
    );
  });

  test('a bad or taken name is refused by field or code', async () => {
    await withApi(async (api) => {
      const cases: [unknown, string][] = [
        [{ name: 'has space' }, 'body.name'],
        [{}, 'body.name'],
        [{ name: 'ok', scope: 'all' }, 'body.scope'],
      ];
      for (const [payload, field] of cases) {
        const response = await api.inject({
          method: 'POST',
          url: '/_sso/api/tokens',
          headers: api.token,
          payload: payload as object,
        });
        assert.equal(response.statusCode, 400, field);
        assert.equal(json<ErrorBody>(response).error.problems?.[0]?.field, field);
      }
      const taken = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: api.token,
        payload: { name: 'ci' },
      });
      assert.equal(taken.statusCode, 409);
      assert.equal(json<ErrorBody>(taken).error.code, 'api_token_name_taken');
      const badId = await api.inject({
        method: 'DELETE',
        url: `/_sso/api/tokens/${'x'.repeat(65)}`,
        headers: api.token,
      });
      assert.equal(badId.statusCode, 400);
      assert.equal(json<ErrorBody>(badId).error.problems?.[0]?.field, 'path.id');
      assert.equal((await api.storage.apiTokens.list()).length, 1);
    });
  });
});
