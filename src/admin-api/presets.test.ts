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
        'dingtalk',
        'feishu',
        'github',
        'gitlab',
        'slack',
        'wechat',
        'wecom',
      ]);
      assert.ok('agentid' in (presets.find(({ preset }) => preset === 'wecom')?.parameters ?? {}));
    });
  });
});
