import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiFixture } from './test-support/api-fixtures.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { entryWithId } from '../../core/test-support/entries.js';

interface Problem {
  code: string;
  field: string;
  message: string;
}
interface ErrorBody {
  error: { code: string; problems?: Problem[] };
}

/** Hosts an entry must not make the gateway call, each in a spelling a filter could miss. */
const internalHosts = [
  '127.0.0.1:6379',
  '[::1]:5432',
  '169.254.169.254',
  'metadata.google.internal',
  '10.0.0.1',
  '0x7f000001',
  '2130706433',
  '127.1',
  '[::ffff:127.0.0.1]',
  'localhost',
  '0.0.0.0',
  '[fd00::1]',
  '100.64.0.1',
  // IPv4-translated (::ffff:0:0:0/96), Teredo, 6to4, local-use NAT64 and other special ranges.
  '[::ffff:0:127.0.0.1]',
  '[2001::7f00:1]',
  '[2002:a00:1::1]',
  '[64:ff9b:1::a00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[3fff::1]',
  '[5f00::1]',
  '192.88.99.1',
];

async function create(api: ApiFixture, body: Record<string, unknown>) {
  return api.inject({
    method: 'POST',
    url: '/_sso/api/entries',
    headers: api.token,
    payload: body,
  });
}

function refusedFields(response: { statusCode: number; body: string }): string[] {
  assert.equal(response.statusCode, 400, response.body);
  const { error } = JSON.parse(response.body) as ErrorBody;
  assert.equal(error.code, 'entry_invalid');
  const problems = error.problems ?? [];
  for (const problem of problems) {
    assert.equal(problem.code, 'url_address_refused');
    assert.match(problem.message, /SSOGATE_OUTBOUND_ALLOW/);
  }
  return problems.map((problem) => problem.field);
}

describe('admin API: the hosts an entry makes the gateway call', () => {
  test('create refuses each internal host, in every spelling, on the token and user-info URLs', async () => {
    await withApi(async (api) => {
      for (const host of internalHosts) {
        const response = await create(
          api,
          entryWithId('internal', {
            tokenUrl: `POST https://${host}/token?code=\${code}`,
            userInfoUrl: `http://${host}/me?access_token=\${access_token}`,
          }),
        );
        assert.deepEqual(refusedFields(response), ['tokenUrl', 'userInfoUrl'], host);
      }
      assert.equal(await api.storage.entries.get('internal'), undefined);
    });
  });

  test('update and live validation refuse them too, and so do a back-channel logout and an extension', async () => {
    await withApi(async (api) => {
      assert.equal((await create(api, entryWithId('corp'))).statusCode, 201);
      const update = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: entryWithId('corp', {
          userInfoUrl: 'https://169.254.169.254/latest/meta-data/?t=${access_token}',
          logoutUrl: 'https://10.0.0.1/logout?secret=${app_secret}',
        }),
      });
      assert.deepEqual(refusedFields(update), ['userInfoUrl', 'logoutUrl']);

      const live = await api.inject({
        method: 'POST',
        url: '/_sso/api/entry-validation',
        headers: api.token,
        payload: entryWithId('corp', { tokenUrl: 'https://2130706433/token?code=${code}' }),
      });
      assert.equal(live.statusCode, 200);
      const verdict = json<{ ok: boolean; problems: Problem[] }>(live);
      assert.equal(verdict.ok, false);
      assert.deepEqual(
        verdict.problems.map(({ code, field }) => [code, field]),
        [['url_address_refused', 'tokenUrl']],
      );

      const extension = await create(api, {
        id: 'ext',
        name: 'Extension',
        enabled: true,
        type: 'extension',
        extensionUrl: 'http://[::1]:9191',
        extensionSecret: 'an-extension-secret-of-32-chars-at-least',
      });
      assert.deepEqual(refusedFields(extension), ['extensionUrl']);
    });
  });

  test('browser redirects are not calls of the gateway: the authorization and front-channel logout URLs may be internal', async () => {
    await withApi(async (api) => {
      const response = await create(
        api,
        entryWithId('intranet', {
          authorizeUrl: 'https://10.0.0.1/authorize?state=${state}&redirect_uri=${redirect_uri}',
          logoutUrl: 'https://10.0.0.1/logout?redirect_uri=${redirect_uri}',
        }),
      );
      assert.equal(response.statusCode, 201, response.body);
    });
  });

  test('SSOGATE_OUTBOUND_ALLOW lets the listed hosts, addresses and networks through', async () => {
    await withApi(
      async (api) => {
        const response = await create(
          api,
          entryWithId('intranet', {
            tokenUrl: 'https://localhost:8443/token?code=${code}',
            userInfoUrl: 'http://127.0.0.1:9090/me?access_token=${access_token}',
            logoutUrl: 'https://10.20.1.2/logout?secret=${app_secret}',
          }),
        );
        assert.equal(response.statusCode, 201, response.body);
        const still = await create(
          api,
          entryWithId('metadata', { tokenUrl: 'http://169.254.169.254/token?code=${code}' }),
        );
        assert.deepEqual(refusedFields(still), ['tokenUrl']);
      },
      {},
      { SSOGATE_OUTBOUND_ALLOW: 'localhost,127.0.0.1,10.20.0.0/16' },
    );
  });
});
