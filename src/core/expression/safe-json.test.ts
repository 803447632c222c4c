import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_BYTES, parseUntrustedJson } from './safe-json.js';
import { expectError } from './test-support/helpers.js';

describe('parseUntrustedJson', () => {
  it('makes __proto__ an own data property (JSON.parse semantics)', () => {
    const value = parseUntrustedJson('{"__proto__":{"polluted":true}}');
    assert.ok(typeof value === 'object' && value !== null);
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses text over 1 MiB, counting UTF-8 bytes', () => {
    expectError(() => parseUntrustedJson(`"${'a'.repeat(MAX_JSON_BYTES)}"`), 'response_too_large');
    expectError(
      () => parseUntrustedJson(`"${'é'.repeat(MAX_JSON_BYTES / 2)}"`),
      'response_too_large',
    );
    assert.equal(typeof parseUntrustedJson(`"${'a'.repeat(MAX_JSON_BYTES - 2)}"`), 'string');
  });

  it('allows 64 levels of nesting, not 65', () => {
    assert.ok(parseUntrustedJson('['.repeat(64) + ']'.repeat(64)));
    expectError(() => parseUntrustedJson('['.repeat(65) + ']'.repeat(65)), 'response_too_large');
    expectError(
      () => parseUntrustedJson('{"a":'.repeat(65) + '1' + '}'.repeat(65)),
      'response_too_large',
    );
  });

  it('refuses 100,000 levels without a stack overflow', () => {
    const n = 100_000;
    expectError(() => parseUntrustedJson('['.repeat(n) + ']'.repeat(n)), 'response_too_large');
    expectError(
      () => parseUntrustedJson('{"a":'.repeat(n) + '1' + '}'.repeat(n)),
      'response_too_large',
    );
    expectError(() => parseUntrustedJson('['.repeat(n)), 'response_not_json');
  });

  it('reports non-JSON with a masked, escaped 80-character excerpt', () => {
    const error = expectError(
      () => parseUntrustedJson('<html>\r\n\u001b[31m access_token=abc123 ' + 'x'.repeat(200)),
      'response_not_json',
    );
    assert.match(
      error.message,
      /^response is not JSON \(first 80 characters: <html>\\r\\n\\u001b\[31m access_token=\*\*\* x+…\)$/,
    );
    assert.doesNotMatch(error.message, /abc123/);
    const secret = expectError(
      () => parseUntrustedJson('bad mysecretvalue', { secrets: ['mysecretvalue'] }),
      'response_not_json',
    );
    assert.equal(secret.message, 'response is not JSON (first 80 characters: bad ***)');
    assert.equal(
      expectError(() => parseUntrustedJson(''), 'response_not_json').message,
      'response is not JSON (it is empty)',
    );
  });

  it('accepts scalars and huge numbers', () => {
    assert.equal(parseUntrustedJson('1e400'), Infinity);
    assert.equal(parseUntrustedJson(' "x" '), 'x');
    assert.equal(parseUntrustedJson('null'), null);
  });
});
