import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { likeContains, parseJsonObject, toMillis, toNullableMillis } from './columns.js';

describe('column conversions', () => {
  test('bigint times read as numbers whatever the driver returns', () => {
    assert.equal(toMillis(1_700_000_000_000), 1_700_000_000_000);
    assert.equal(toMillis('1700000000000'), 1_700_000_000_000);
    assert.equal(toMillis(1_700_000_000_000n), 1_700_000_000_000);
    assert.equal(toNullableMillis(null), null);
    assert.throws(() => toMillis('abc'), /Not a time/);
  });

  test('parseJsonObject gives plain data and refuses non-objects', () => {
    const value = parseJsonObject('{"__proto__":{"x":1},"a":[1]}', 'c');
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(Object.hasOwn(value, '__proto__'), true);
    assert.deepEqual(value.a, [1]);
    for (const text of ['[]', 'null', '1', '"s"']) {
      assert.throws(() => parseJsonObject(text, 'users.extra'), /users\.extra/);
    }
  });

  test('likeContains escapes the LIKE wildcards and the escape character', () => {
    assert.equal(likeContains('a%b_c\\d'), '%a\\%b\\_c\\\\d%');
  });
});
