import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeIdentityValue } from './identity-headers.js';

/** What docs/proxy.md tells an application to do with an identity header. */
const decode = decodeURIComponent;

describe('identity header values', () => {
  test('plain printable ASCII without % is sent as it is', () => {
    for (const value of ['alice', 'alice@example.test', 'Bob Builder', 'a+b/c:d;e=f']) {
      assert.equal(encodeIdentityValue(value), value);
    }
  });

  test('% is encoded too, so a value that looks encoded never reads as another one', () => {
    assert.equal(encodeIdentityValue('adm%69n'), 'adm%2569n');
    assert.equal(decode(encodeIdentityValue('adm%69n')), 'adm%69n');
    assert.notEqual(encodeIdentityValue('coll%C3%A9'), encodeIdentityValue('collé'));
    assert.equal(decode(encodeIdentityValue('coll%C3%A9')), 'coll%C3%A9');
    assert.equal(decode(encodeIdentityValue('collé')), 'collé');
  });

  test('any text decodes back to itself, so two values never share a header', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme' }),
          // What HTTP and frameworks read specially, made frequent.
          fc.string({ unit: fc.constantFrom(' ', ',', '\t', '%', 'a') }),
        ),
        (value) => {
          const sent = encodeIdentityValue(value);
          assert.match(sent, /^(?:[^ ,](?:[^,]*[^ ,])?)?$/);
          assert.match(sent, /^[\x20-\x7e]*$/);
          assert.equal(decode(sent), value);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('what HTTP trims or splits is encoded, so no two values read as one', () => {
    // Every HTTP parser trims a field value's surrounding spaces and tabs
    // (RFC 9110 §5.5), and most frameworks split a value at commas (§5.6.1).
    const read = (value: string) => encodeIdentityValue(value).replace(/^[ \t]+|[ \t]+$/g, '');
    assert.equal(encodeIdentityValue(' alice'), '%20alice');
    assert.equal(encodeIdentityValue('alice '), 'alice%20');
    assert.equal(encodeIdentityValue('x, admin'), 'x%2C%20admin');
    const values = ['alice', ' alice', 'alice ', '  alice  ', 'x, admin', 'x,admin', 'Bob Builder'];
    assert.equal(new Set(values.map(read)).size, values.length);
    for (const value of values) {
      assert.equal(decode(read(value)), value);
      assert.doesNotMatch(encodeIdentityValue(value), /,/);
    }
  });

  test('text with a lone surrogate still gives a header rather than an exception', () => {
    assert.equal(encodeIdentityValue('a\ud800'), 'a%EF%BF%BD');
  });
});
