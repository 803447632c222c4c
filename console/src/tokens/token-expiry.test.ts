import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expiresAtAfter, isExpired, wholeDays } from './token-expiry.js';

describe('API token expiry in the console', () => {
  const now = Date.parse('2024-05-01T12:00:00.000Z');

  test('the "valid for" field takes whole days only', () => {
    assert.equal(wholeDays('30'), 30);
    assert.equal(wholeDays(' 1 '), 1);
    for (const text of ['', ' ', '0', '-3', '1.5', 'abc', '1e9']) {
      assert.equal(wholeDays(text), undefined, text);
    }
  });

  test('a number of days becomes an ISO time that many days on, as the CLI counts them', () => {
    assert.equal(expiresAtAfter(30, now), '2024-05-31T12:00:00.000Z');
  });

  test('a token is expired from its expiry on; one without expiry never is', () => {
    assert.equal(isExpired('2024-05-01T12:00:00.000Z', now), true);
    assert.equal(isExpired('2024-05-01T12:00:00.001Z', now), false);
    assert.equal(isExpired(null, now), false);
  });
});
