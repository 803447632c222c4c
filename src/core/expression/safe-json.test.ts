import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
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

  it('keeps an integer beyond the safe range as its exact decimal text', () => {
    assert.deepEqual(parseUntrustedJson('{"id":12345678901234567890}'), {
      id: '12345678901234567890',
    });
    assert.deepEqual(
      parseUntrustedJson('[12345678901234567891, -98765432109876543210, 9007199254740992]'),
      ['12345678901234567891', '-98765432109876543210', '9007199254740992'],
    );
    assert.equal(
      parseUntrustedJson('123456789012345678901234567890'),
      '123456789012345678901234567890',
    );
  });

  it('leaves safe integers, fractions, exponents and strings as JSON.parse reads them', () => {
    assert.deepEqual(
      parseUntrustedJson(
        '{"a":9007199254740991,"b":-9007199254740991,"c":0.12345678901234567890,' +
          '"d":12345678901234567890e0,"e":"12345678901234567890","f":"x\\"12345678901234567890",' +
          '"g":1e21,"h":-0}',
      ),
      {
        a: 9007199254740991,
        b: -9007199254740991,
        c: Number('0.12345678901234567890'),
        d: Number('12345678901234567890e0'),
        e: '12345678901234567890',
        f: 'x"12345678901234567890',
        g: 1e21,
        h: -0,
      },
    );
  });

  it('reads any integer exactly, and anything else as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (integer) => {
        const value = parseUntrustedJson(`{"id":${integer},"s":"${integer}"}`);
        const exact = Number.isSafeInteger(Number(integer)) ? Number(integer) : String(integer);
        assert.deepEqual(value, { id: exact, s: String(integer) });
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => {
        const text = JSON.stringify(json);
        // JSON.stringify wrote each number as its shortest literal.
        const expected: unknown = JSON.parse(text, (_key, value: unknown) =>
          typeof value === 'number' &&
          !Number.isSafeInteger(value) &&
          /^-?[0-9]+$/.test(JSON.stringify(value))
            ? JSON.stringify(value)
            : value,
        );
        assert.deepEqual(parseUntrustedJson(text), expected);
      }),
    );
  });
});
