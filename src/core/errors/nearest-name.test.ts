import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nearestName } from './nearest-name.js';

describe('nearestName', () => {
  const functions = ['JSON_GET', 'JSON_PATH', 'FORM_GET', 'CONCAT'];

  test('finds a name one or two edits away, case aside', () => {
    assert.equal(nearestName('JSON_GTE', functions), 'JSON_GET');
    assert.equal(nearestName('json_get', functions), 'JSON_GET');
    assert.equal(nearestName('JSONGET', functions), 'JSON_GET');
    assert.equal(nearestName('CONCATT', functions), 'CONCAT');
    assert.equal(nearestName('redirct_uri', ['redirect_uri', 'state']), 'redirect_uri');
  });

  test('the closest wins; nothing within two edits is no hint', () => {
    assert.equal(nearestName('JSON_PAT', functions), 'JSON_PATH');
    assert.equal(nearestName('LOWERCASE', functions), undefined);
    assert.equal(nearestName('x', []), undefined);
  });
});
