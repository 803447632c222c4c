import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSecretBox } from './secret-box.js';

const key = () => new Uint8Array(randomBytes(32));

describe('createSecretBox', () => {
  test('seals and opens, with a fresh iv each time', () => {
    const box = createSecretBox(key());
    const a = box.seal('s3cr3t – ünïcode');
    const b = box.seal('s3cr3t – ünïcode');
    assert.match(a, /^v1\.[A-Za-z0-9_-]+$/);
    assert.notEqual(a, b);
    assert.equal(box.open(a), 's3cr3t – ünïcode');
    assert.equal(box.open(box.seal('')), '');
  });

  test('the sealed value does not contain the plaintext', () => {
    const sealed = createSecretBox(key()).seal('plain-secret-value');
    assert.ok(!sealed.includes('plain-secret-value'));
    assert.ok(!Buffer.from(sealed.slice(3), 'base64url').toString('latin1').includes('plain'));
  });

  test('a derived key: the same from the same secret key, another for another purpose or key', () => {
    const secret = key();
    const derived = createSecretBox(secret).derive('a purpose');
    assert.equal(derived.length, 32);
    assert.deepEqual(createSecretBox(new Uint8Array(secret)).derive('a purpose'), derived);
    assert.notDeepEqual(createSecretBox(secret).derive('another purpose'), derived);
    assert.notDeepEqual(createSecretBox(key()).derive('a purpose'), derived);
    assert.notDeepEqual(derived, secret);
  });

  test('a wrong key cannot open it', () => {
    const sealed = createSecretBox(key()).seal('secret');
    assert.throws(() => createSecretBox(key()).open(sealed), /wrong secret key/);
  });

  test('tampering is detected', () => {
    const box = createSecretBox(key());
    const bytes = Buffer.from(box.seal('secret').slice(3), 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    assert.throws(() => box.open(`v1.${bytes.toString('base64url')}`), /altered/);
  });

  test('unknown formats and truncated values are refused', () => {
    const box = createSecretBox(key());
    assert.throws(() => box.open('secret'), /unknown format/);
    assert.throws(() => box.open('v2.abcd'), /unknown format/);
    assert.throws(() => box.open('v1.abcd'), /truncated/);
  });

  test('a key of the wrong length is refused', () => {
    assert.throws(() => createSecretBox(new Uint8Array(16)), /32 bytes/);
  });
});
