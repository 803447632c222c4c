import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { REFERENCE_ID_PATTERN, newReferenceId } from './reference-id.js';

describe('newReferenceId', () => {
  test('10 Crockford base32 characters, no I, L, O or U', () => {
    for (let i = 0; i < 200; i += 1) {
      const id = newReferenceId(randomBytes);
      assert.match(id, REFERENCE_ID_PATTERN);
      assert.doesNotMatch(id, /[ILOU]/);
    }
  });

  test('is deterministic given the random source and uses the whole alphabet', () => {
    const bytes = Uint8Array.from([0, 1, 9, 10, 17, 18, 21, 22, 26, 31]);
    assert.equal(
      newReferenceId(() => bytes),
      '019AHJNPTZ',
    );
    assert.equal(
      newReferenceId(() => new Uint8Array(10).fill(255)),
      'ZZZZZZZZZZ',
    );
  });

  test('asks for 10 bytes and rejects a short answer', () => {
    let asked = 0;
    newReferenceId((n) => {
      asked = n;
      return new Uint8Array(n);
    });
    assert.equal(asked, 10);
    assert.throws(() => newReferenceId(() => new Uint8Array(3)), RangeError);
  });

  test('1,000 ids from a real source are distinct', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newReferenceId(randomBytes)));
    assert.equal(ids.size, 1000);
  });
});
