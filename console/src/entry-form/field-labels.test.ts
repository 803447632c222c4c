import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { labelOf } from './field-labels.js';
import { en, zhCN } from '../i18n/catalogs.js';

describe('the on-screen label of an API field', () => {
  test('a field, a nested option, a row of a list', () => {
    assert.equal(labelOf('authorizeUrl', en.entryForm), 'Authorization URL');
    assert.equal(
      labelOf('tokenRequest.successCondition', en.entryForm),
      'Token call success condition',
    );
    assert.equal(
      labelOf('tokenRequest.headers[0].name', en.entryForm),
      'Token call headers, row 1',
    );
    assert.equal(labelOf('tokenValues[2].expression', en.entryForm), 'Token values, row 3');
    assert.equal(labelOf('userInfoParse[1].expression', en.entryForm), 'User-info parsing, row 2');
    assert.equal(labelOf('extensionSettings.tenant', en.entryForm), 'Settings');
  });

  test('the entry as a whole, and a field the form does not know, keep a readable name', () => {
    assert.equal(labelOf('entry', en.entryForm), 'The entry');
    assert.equal(labelOf('somethingNew', en.entryForm), 'somethingNew');
  });

  test('the labels are those of the catalog handed in', () => {
    assert.equal(labelOf('authorizeUrl', zhCN.entryForm), '授权 URL');
    assert.equal(
      labelOf('tokenRequest.headers[0].name', zhCN.entryForm),
      '令牌调用请求头，第 1 行',
    );
    assert.equal(labelOf('entry', zhCN.entryForm), '整个登录方式');
  });
});
