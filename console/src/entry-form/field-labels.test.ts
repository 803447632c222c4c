import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { labelOf } from './field-labels.js';

describe('the on-screen label of an API field', () => {
  test('a field, a nested option, a row of a list', () => {
    assert.equal(labelOf('authorizeUrl'), 'Authorization URL');
    assert.equal(labelOf('tokenRequest.successCondition'), 'Token call success condition');
    assert.equal(labelOf('tokenRequest.headers[0].name'), 'Token call headers, row 1');
    assert.equal(labelOf('tokenValues[2].expression'), 'Token values, row 3');
    assert.equal(labelOf('userInfoParse[1].expression'), 'User-info parsing, row 2');
    assert.equal(labelOf('extensionSettings.tenant'), 'Settings');
  });

  test('the entry as a whole, and a field the form does not know, keep a readable name', () => {
    assert.equal(labelOf('entry'), 'The entry');
    assert.equal(labelOf('somethingNew'), 'somethingNew');
  });
});
