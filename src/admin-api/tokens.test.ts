import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../crypto/hash.js';
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
      const stored = (await api.storage.apiTokens.list()).find((t) => t.id === token.id);
      assert.equal(stored?.tokenHash, sha256Base64url(secret));

      const [event] = await api.storage.audit.list({ kind: 'token_change', limit: 1 });
      assert.deepEqual(
        [event?.actor, event?.detail],
        ['root', { action: 'create', tokenId: token.id, name: 'deploy' }],
      );
      assert.doesNotMatch(JSON.stringify(event), new RegExp(secret));

      const bearer = { authorization: `Bearer ${secret}` };
      const list = await api.inject({ method: 'GET', url: '/_sso/api/tokens', headers: bearer });
      assert.equal(list.statusCode, 200);
      const { tokens } = tokenListAnswer.parse(json(list));
      assert.deepEqual(tokens.map((t) => t.name).sort(), ['ci', 'deploy']);
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
