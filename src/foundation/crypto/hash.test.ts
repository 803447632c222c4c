import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from './hash.js';

test('sha256Base64url matches the known digest, unpadded base64url', () => {
  // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
  assert.equal(sha256Base64url('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  assert.equal(sha256Base64url('').length, 43);
  assert.notEqual(sha256Base64url('é'), sha256Base64url('e'));
});
