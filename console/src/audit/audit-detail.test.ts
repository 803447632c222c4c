import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { zhCN } from '../i18n/catalogs.js';
import { readableDetail, shownValue } from './audit-detail.js';

describe('an audit detail, readable', () => {
  test('an entry change lists each field by its label, before and after', () => {
    assert.deepEqual(
      readableDetail({
        action: 'update',
        fields: ['name', 'enabled', 'appsecret', 'tokenRequest'],
        changes: [
          { field: 'name', before: 'Corp', after: 'Corp SSO' },
          { field: 'enabled', before: true, after: false },
          { field: 'appsecret', before: 'set' },
          { field: 'tokenRequest', after: { clientAuthentication: 'basic' } },
        ],
        sessionsEnded: 3,
      }),
      {
        action: 'Changed',
        changes: [
          { label: 'Name', before: 'Corp', after: 'Corp SSO' },
          { label: 'Enabled', before: 'yes', after: 'no' },
          { label: 'App secret', before: 'set', after: 'not set' },
          {
            label: 'Token call options',
            before: 'not set',
            after: '{"clientAuthentication":"basic"}',
          },
        ],
        facts: [{ name: 'Sessions ended', value: '3' }],
      },
    );
  });

  test('an older event without values still names its fields by label', () => {
    assert.deepEqual(readableDetail({ action: 'create', fields: ['authorizeUrl', 'appsecret'] }), {
      action: 'Created',
      changes: [],
      facts: [{ name: 'Fields', value: 'Authorization URL, App secret' }],
    });
  });

  test('other details and none at all', () => {
    assert.deepEqual(readableDetail(null), { action: undefined, changes: [], facts: [] });
    assert.deepEqual(readableDetail({ action: 'reorder', order: ['b', 'a'] }), {
      action: 'Reordered',
      changes: [],
      facts: [{ name: 'New order', value: 'b, a' }],
    });
    assert.equal(shownValue(''), '(empty)');
  });

  test('in Chinese, with codes and values only left as they are', () => {
    assert.deepEqual(
      readableDetail({ testSignIn: 'abc', draft: false, origins: ['https://a.test'] }, zhCN),
      {
        action: undefined,
        changes: [],
        facts: [
          { name: '测试登录编号', value: 'abc' },
          { name: '测试的是未保存的表单', value: '否' },
          { name: '调用的地址', value: 'https://a.test' },
        ],
      },
    );
    assert.equal(readableDetail({ action: 'create' }, zhCN).action, '已创建');
  });

  test('a sign-out scope is said in words, in Chinese too', () => {
    assert.deepEqual(readableDetail({ scope: 'everywhere' }, zhCN).facts, [
      { name: '范围', value: '所有地方' },
    ]);
    assert.deepEqual(readableDetail({ scope: 'here' }, zhCN).facts, [
      { name: '范围', value: '仅此处' },
    ]);
    // An OpenID scope is the client's word, shown as recorded.
    assert.deepEqual(readableDetail({ scope: 'openid email' }, zhCN).facts, [
      { name: '范围', value: 'openid email' },
    ]);
  });
});
