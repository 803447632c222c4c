import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand } from '../../cli/test-support/run-command.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { tokenCreatedAnswer, tokenListAnswer } from './response-schemas.js';

interface ErrorBody {
  error: { code: string; message: string; problems?: { field: string }[] };
}

const day = 86_400_000;

describe('API tokens that expire', () => {
  test('expiresAt is stored, listed, and the token is refused with api_token_expired after it', async () => {
    await withApi(async (api) => {
      const now = api.gateway.clock();
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: api.token,
        payload: { name: 'short', expiresAt: new Date(now + day).toISOString() },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { token, secret } = tokenCreatedAnswer.parse(json(created));
      assert.equal(token.expiresAt, new Date(now + day).toISOString());
      const [event] = await api.storage.audit.list({ kind: 'token_change', limit: 1 });
      assert.equal(event?.detail?.expiresAt, new Date(now + day).toISOString());

      const bearer = { authorization: `Bearer ${secret}` };
      const list = await api.inject({ method: 'GET', url: '/_sso/api/tokens', headers: bearer });
      assert.equal(list.statusCode, 200);
      const listed = tokenListAnswer.parse(json(list)).tokens;
      assert.equal(listed.find((t) => t.id === token.id)?.expiresAt, token.expiresAt);
      assert.equal(listed.find((t) => t.name === 'ci')?.expiresAt, null);

      api.tick(day);
      const refused = await api.inject({ method: 'GET', url: '/_sso/api/tokens', headers: bearer });
      assert.equal(refused.statusCode, 401);
      assert.equal(json<ErrorBody>(refused).error.code, 'api_token_expired');
      // A token without expiry goes on; the expired one's name is free again.
      const renewed = await api.inject({
        method: 'POST',
        url: '/_sso/api/tokens',
        headers: api.token,
        payload: { name: 'short' },
      });
      assert.equal(renewed.statusCode, 201, renewed.body);
    });
  });

  test('an expiry that is not in the future, or not a date, is request_invalid naming the field', async () => {
    await withApi(async (api) => {
      const now = api.gateway.clock();
      for (const expiresAt of [new Date(now).toISOString(), '2001-01-01', 'tomorrow']) {
        const refused = await api.inject({
          method: 'POST',
          url: '/_sso/api/tokens',
          headers: api.token,
          payload: { name: 'x', expiresAt },
        });
        assert.equal(refused.statusCode, 400, expiresAt);
        const { error } = json<ErrorBody>(refused);
        assert.equal(error.code, 'request_invalid');
        assert.match(JSON.stringify(error.problems), /expiresAt/);
      }
      assert.equal((await api.storage.apiTokens.list()).length, 1);
    });
  });

  test('ssogate token create --expires-in 30d; the list shows when it expires', async () => {
    await withTestStorage(async (storage) => {
      const created = await runCommand(
        ['tokens', 'create', '--name', 'ci', '--expires-in', '30d'],
        {
          storage,
        },
      );
      assert.equal(created.code, 0, created.err);
      assert.match(created.err, /valid until 2024-05-31T12:00:00.000Z/);
      const [record] = await storage.apiTokens.list();
      assert.equal(record?.expiresAt, Date.parse('2024-05-31T12:00:00Z'));
      const list = await runCommand(['token', 'list'], { storage });
      assert.match(list.out, /EXPIRES\n/);
      assert.match(
        list.out,
        /ci\s+service:cli\s+2024-05-01T12:00:00.000Z\s+-\s+-\s+2024-05-31T12:00:00.000Z/,
      );
      for (const wrong of ['30', '0d', '1y', '-1d', 'soon']) {
        const refused = await runCommand(
          ['token', 'create', '--name', 'y', '--expires-in', wrong],
          {
            storage,
          },
        );
        assert.equal(refused.code, 2, wrong);
        assert.match(refused.err, /--expires-in/);
      }
      const misplaced = await runCommand(['token', 'list', '--expires-in', '1d'], { storage });
      assert.equal(misplaced.code, 2);
    });
  });
});
