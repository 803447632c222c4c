import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEvaluationContext } from './context.js';
import { evaluate, evaluateCondition } from './evaluate.js';
import { parseExpression } from './parser.js';
import { expectError, run } from './test-support/helpers.js';

const POLLUTING =
  '{"access_token":"t","__proto__":{"x":1,"access_token":"evil"},"constructor":{"prototype":{"isAdmin":true}}}';

describe('evaluate', () => {
  it('returns $response as text', () => {
    assert.equal(run('$response', 'raw body'), 'raw body');
    assert.equal(run('$RESPONSE', 'raw'), 'raw');
  });

  it('evaluateCondition is true only for exactly true', () => {
    const ctx = createEvaluationContext('{"ok":true,"s":"true","n":1}');
    const cond = (source: string): boolean => evaluateCondition(parseExpression(source), ctx);
    assert.equal(cond("JSON_GET($response, 'ok')"), true);
    assert.equal(cond("JSON_GET($response, 's')"), false);
    assert.equal(cond("JSON_GET($response, 'n')"), false);
    assert.equal(cond("JSON_GET($response, 'n') == 1"), true);
  });

  it('puts the column of the innermost failing call on the error', () => {
    expectError(
      () => run("LOWER(JSON_GET(JSON_GET($response, 'a'), 'b'))", '{"a":{}}'),
      'key_not_found',
      7,
    );
    expectError(() => run("  JSON_GET($response, 'x') == 1", '{}'), 'key_not_found', 3);
  });

  it('parses the body once per context and caches failures too', () => {
    const ctx = createEvaluationContext('{"a":{"k":1},"b":2,"c":3}');
    const sources = [
      "JSON_GET($response, 'a')",
      "JSON_GET($response, 'b')",
      "JSON_PATH($response, 'a.k')",
      "JSON_GET($response, 'c') == 3",
    ];
    for (const source of sources) evaluate(parseExpression(source), ctx);
    assert.equal(ctx.jsonParseCount, 1);
    const first = evaluate(parseExpression("JSON_GET($response, 'a')"), ctx);
    const second = evaluate(parseExpression("JSON_GET($response, 'a')"), ctx);
    assert.equal(first, second, 'the identical object');
    assert.equal(ctx.parseJson(ctx.response), ctx.parseJson(ctx.response));

    const bad = createEvaluationContext('not json');
    for (let i = 0; i < 3; i++)
      expectError(
        () => evaluate(parseExpression("JSON_GET($response, 'a')"), bad),
        'response_not_json',
      );
    assert.equal(bad.jsonParseCount, 1);
  });

  it('masks the context secrets in "not JSON" excerpts', () => {
    const ctx = createEvaluationContext('error: client secret s3cr3t-value rejected', {
      secrets: ['s3cr3t-value'],
    });
    const error = expectError(
      () => evaluate(parseExpression("JSON_GET($response, 'a')"), ctx),
      'response_not_json',
    );
    assert.equal(
      error.message,
      'response is not JSON (first 80 characters: error: client secret *** rejected)',
    );
  });
});

describe('prototype pollution: JSON keys are plain data', () => {
  const value = (key: string): unknown => run(`JSON_GET($response, '${key}')`, POLLUTING);

  it('returns own data for __proto__ and constructor', () => {
    assert.deepEqual(value('__proto__'), { x: 1, access_token: 'evil' });
    assert.deepEqual(value('constructor'), { prototype: { isAdmin: true } });
    assert.deepEqual(run("JSON_PATH($response, 'constructor.prototype.isAdmin')", POLLUTING), true);
    assert.equal(value('access_token'), 't');
  });

  it('finds nothing for inherited names', () => {
    for (const key of [
      'toString',
      'hasOwnProperty',
      'valueOf',
      'isPrototypeOf',
      '__defineGetter__',
    ]) {
      expectError(() => value(key), 'key_not_found');
    }
    expectError(() => run("JSON_GET($response, 'constructor')", '{"a":1}'), 'key_not_found');
    expectError(() => run("JSON_GET($response, '__proto__')", '{"a":1}'), 'key_not_found');
    expectError(
      () => run("JSON_PATH($response, 'a.__proto__.toString')", '{"a":{}}'),
      'key_not_found',
    );
    expectError(
      () => run("JSON_GET(JSON_GET($response, 'a'), 'length')", '{"a":[1]}'),
      'key_not_found',
    );
  });

  it('does not inherit through a __proto__ key', () => {
    expectError(
      () => run("JSON_GET($response, 'access_token')", '{"__proto__":{"access_token":"x"}}'),
      'key_not_found',
    );
    expectError(() => run("FORM_GET($response, 'toString')", 'a=1'), 'key_not_found');
  });

  it('leaves Object.prototype untouched', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    for (const key of ['__proto__', 'constructor', 'x', 'isAdmin', 'access_token']) {
      try {
        value(key);
      } catch {
        // key_not_found is fine here
      }
    }
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });
});
