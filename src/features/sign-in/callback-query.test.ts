import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callbackQuery } from './callback-query.js';

/** Counts the values the result holds, one per parameter read. */
function valuesIn(query: ReturnType<typeof callbackQuery>): number {
  let count = 0;
  for (const value of Object.values(query)) count += Array.isArray(value) ? value.length : 1;
  return count;
}

test('a repeated parameter becomes a list in order, a single one a string', () => {
  const query = callbackQuery('/_sso/callback/corp?code=a&state=s&code=b&code=%ff');
  assert.deepEqual({ ...query }, { code: ['a', 'b', '\ufffd'], state: 's' });
});

test('many repeats of one name all land in one list', () => {
  // Each repeat once copied the list so far (quadratic time); the fuzz suite's
  // 1 MB query (parsers.fuzz.test.ts) is the guard on the time.
  const count = 20_000;
  const query = callbackQuery(`/_sso/callback/corp?${'a=&'.repeat(count)}code=x`);
  assert.equal(valuesIn(query), count + 1);
  const list = query.a;
  assert.ok(Array.isArray(list));
  // The one list holds every value: not a chain of copies.
  assert.equal(list.length, count);
});
