import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
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
});
