import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { json, withApi } from './test-support/api-fixtures.js';

describe('admin API: presets', () => {
  test('lists every preset with its parameters, for an API token only', async () => {
    await withApi(async (api) => {
      const anonymous = await api.inject({ method: 'GET', url: '/_sso/api/presets' });
      assert.equal(anonymous.statusCode, 401);
      const response = await api.inject({
        method: 'GET',
        url: '/_sso/api/presets',
        headers: api.token,
      });
      assert.equal(response.statusCode, 200);
      const { presets } = json<{
        presets: { preset: string; parameters: Record<string, unknown> }[];
      }>(response);
      assert.deepEqual(presets.map(({ preset }) => preset).sort(), [
        'active-directory',
        'adfs-saml',
        'auth0',
        'authentik',
        'dingtalk',
        'feishu',
        'github',
        'gitlab',
        'google',
        'keycloak',
        'microsoft-entra-id',
        'microsoft-entra-id-saml',
        'okta',
        'okta-saml',
        'openldap',
        'slack',
        'wechat',
        'wecom',
      ]);
      const keycloak = presets.find(({ preset }) => preset === 'keycloak') as
        { parameters: Record<string, unknown>; entry: { oidc?: { issuer?: string } } } | undefined;
      assert.deepEqual(Object.keys(keycloak?.parameters ?? {}), ['baseUrl', 'realm']);
      assert.equal(keycloak?.entry.oidc?.issuer, '{{baseUrl}}/realms/{{realm}}');
      assert.ok('agentid' in (presets.find(({ preset }) => preset === 'wecom')?.parameters ?? {}));
    });
  });
});
