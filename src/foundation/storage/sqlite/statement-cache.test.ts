import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { withStatementCache } from './statement-cache.js';

function database(): BetterSqlite3.Database {
  const raw = new BetterSqlite3(':memory:');
  raw.exec('create table t (k text primary key, v integer)');
  return raw;
}

describe('withStatementCache', () => {
  test('prepares a text once and binds each run its own values', () => {
    const cache = withStatementCache(database());
    try {
      const insert = 'insert into t (k, v) values (?, ?)';
      cache.prepare(insert).run(['a', 1]);
      cache.prepare(insert).run(['b', 2]);
      assert.equal(cache.prepare(insert), cache.prepare(insert));
      const select = 'select v from t where k = ?';
      assert.deepEqual(cache.prepare(select).all(['a']), [{ v: 1 }]);
      assert.deepEqual(cache.prepare(select).all(['b']), [{ v: 2 }]);
      assert.deepEqual(cache.prepare(select).all(['none']), []);
      assert.equal(cache.cachedStatements(), 2);
    } finally {
      cache.close();
    }
  });

  test('a statement being iterated is not handed out again', () => {
    const cache = withStatementCache(database());
    try {
      for (const [k, v] of [
        ['a', 1],
        ['b', 2],
      ] as const)
        cache.prepare('insert into t (k, v) values (?, ?)').run([k, v]);
      const text = 'select k from t where v >= ? order by k';
      const outer = cache.prepare(text).iterate([0]);
      assert.deepEqual(outer.next().value, { k: 'a' });
      // The cached statement is busy with `outer`: this one is fresh.
      assert.deepEqual(cache.prepare(text).all([2]), [{ k: 'b' }]);
      assert.deepEqual(outer.next().value, { k: 'b' });
      assert.equal(outer.next().done, true);
      assert.deepEqual(cache.prepare(text).all([1]), [{ k: 'a' }, { k: 'b' }]);
    } finally {
      cache.close();
    }
  });

  test('keeps at most its capacity, dropping the oldest', () => {
    const cache = withStatementCache(database(), 2);
    try {
      const first = cache.prepare('select 1 as n');
      cache.prepare('select 2 as n');
      cache.prepare('select 3 as n');
      assert.equal(cache.cachedStatements(), 2);
      assert.notEqual(cache.prepare('select 1 as n'), first);
      assert.deepEqual(cache.prepare('select 1 as n').all([]), [{ n: 1 }]);
    } finally {
      cache.close();
    }
  });

  test('a cached statement sees a changed schema', () => {
    const raw = database();
    const cache = withStatementCache(raw);
    try {
      cache.prepare('insert into t (k, v) values (?, ?)').run(['a', 1]);
      assert.deepEqual(cache.prepare('select * from t').all([]), [{ k: 'a', v: 1 }]);
      raw.exec('alter table t add column w integer default 7');
      assert.deepEqual(cache.prepare('select * from t').all([]), [{ k: 'a', v: 1, w: 7 }]);
    } finally {
      cache.close();
    }
  });
});
