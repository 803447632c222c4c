/**
 * Property tests: whatever an administrator types and whatever a server
 * sends, the public functions either return or throw an SsogateError, and
 * Object.prototype is never touched.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SsogateError } from '../errors/ssogate-error.js';
import { maskSecrets } from '../mask/mask.js';
import { excerpt } from '../mask/excerpt.js';
import { createEvaluationContext } from './context.js';
import { evaluate } from './evaluate.js';
import type { Expression } from './ast.js';
import { parseExpression } from './parser.js';
import { expressionFragments, textOf } from '../test-support/fuzz-inputs.js';

function onlySsogateErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error: unknown) {
    if (!(error instanceof SsogateError)) {
      throw new Error(`threw a non-SsogateError: ${String(error)}`, { cause: error });
    }
  }
}

const grammarSoup = textOf(expressionFragments, { maxPieces: 40, randomLength: 0 });

describe('parseExpression never throws anything but SsogateError', () => {
  it('on arbitrary unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (source) => {
        onlySsogateErrors(() => parseExpression(source));
      }),
      { numRuns: 2000 },
    );
  });
  it('on strings built from grammar fragments', () => {
    fc.assert(
      fc.property(grammarSoup, (source) => {
        onlySsogateErrors(() => parseExpression(source));
      }),
      { numRuns: 3000 },
    );
  });
  it('on deep nestings of parentheses and calls', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('(', 'LOWER(', 'COALESCE(1,'),
        (n, open) => {
          onlySsogateErrors(() => parseExpression(open.repeat(n) + "'a'" + ')'.repeat(n)));
        },
      ),
      { numRuns: 200 },
    );
  });
});

const EXPRESSIONS: readonly Expression[] = [
  "JSON_GET($response, 'access_token')",
  "JSON_GET($response, '__proto__')",
  "JSON_GET($response, 'constructor')",
  "JSON_GET(JSON_GET($response, 'constructor'), 'prototype')",
  "JSON_GET($response, 'toString')",
  'JSON_GET($response, 0)',
  "JSON_PATH($response, '__proto__.polluted')",
  "JSON_PATH($response, 'constructor.prototype.isAdmin')",
  "JSON_PATH($response, 'a[0].b')",
  "COALESCE(JSON_GET($response, 'a'), JSON_GET($response, '__proto__'), 'x')",
  "CONCAT($response, JSON_GET($response, 'a'))",
  "LOWER(JSON_GET($response, 'a'))",
  "JSON_GET($response, 'a') == JSON_GET($response, 'b')",
  "FORM_GET($response, '__proto__')",
  'JWT_CLAIMS_UNVERIFIED($response)',
  "JSON_GET(JSON_GET($response, 'a'), 'b')",
  '$response == 0',
].map((source) => parseExpression(source));

// Built as text: fc.record cannot create an own `__proto__` key, JSON text can.
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'a',
  'b',
  'access_token',
];
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant({ prototype: { isAdmin: true, polluted: 'yes' } }),
  fc.constant({ polluted: true, access_token: 'x', isAdmin: true }),
);
const hostileObject: fc.Arbitrary<string> = fc.letrec<{ obj: string }>((tie) => ({
  obj: fc
    .array(
      fc.tuple(
        fc.constantFrom(...HOSTILE_KEYS),
        fc.oneof(
          { depthSize: 'small' },
          hostileValue.map((v) => JSON.stringify(v)),
          tie('obj'),
        ),
      ),
      {
        maxLength: 6,
      },
    )
    .map(
      (entries) =>
        `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`,
    ),
})).obj;

const deep = fc.integer({ min: 1, max: 200 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n));

const bodies = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  hostileObject,
  deep,
  fc.constantFrom(
    '1e400',
    '{"a":1e400,"b":-1e400}',
    '[1e400]',
    `"${'x'.repeat(100_000)}"`,
    '{"__proto__":{"access_token":"x"}}',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ maxLength: 60 }).map((s) => `a=${encodeURIComponent(s)}&__proto__=${s}`),
);

describe('evaluate over hostile responses', () => {
  let prototypeNames: string[] = [];
  before(() => {
    prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
  });
  after(() => {
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeNames);
  });

  it('throws only SsogateError and never touches Object.prototype', () => {
    fc.assert(
      fc.property(bodies, (body) => {
        const context = createEvaluationContext(body);
        for (const expression of EXPRESSIONS) {
          onlySsogateErrors(() => evaluate(expression, context));
        }
        const probe: Record<string, unknown> = {};
        assert.equal(probe.polluted, undefined);
        assert.equal(probe.isAdmin, undefined);
        assert.equal(probe.access_token, undefined);
        assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeNames);
      }),
      { numRuns: 1500 },
    );
  });

  it('never returns a function or Object.prototype', () => {
    fc.assert(
      fc.property(hostileObject, (body) => {
        const context = createEvaluationContext(body);
        for (const expression of EXPRESSIONS) {
          try {
            const result: unknown = evaluate(expression, context);
            assert.notEqual(typeof result, 'function');
            assert.notEqual(result, Object.prototype);
          } catch (error: unknown) {
            assert.ok(error instanceof SsogateError);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('mask and excerpt properties', () => {
  it('an excerpt never contains CR, LF or other C0 controls', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.integer({ min: 0, max: 120 }),
        (text, max) => {
          // eslint-disable-next-line no-control-regex
          assert.doesNotMatch(excerpt(text, max), /[\u0000-\u001f\u007f\u2028\u2029]/);
        },
      ),
    );
  });

  it('a secret of 4+ characters never survives masking', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 4, maxLength: 30 }),
        fc.string(),
        (head, secret, tail) => {
          assert.ok(!maskSecrets(`${head}${secret}${tail}`, [secret]).includes(secret));
        },
      ),
    );
  });

  it('a JSON access_token value never survives masking', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.jsonValue(), (token, other) => {
        const text = JSON.stringify({ other, access_token: `T${token}` });
        const masked = maskSecrets(text);
        assert.ok(masked.includes('"access_token":"***"'), masked);
      }),
    );
  });
});
