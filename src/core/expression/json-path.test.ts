import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePath } from './json-path.js';

describe('parsePath', () => {
  it('parses names, indexes and quoted keys', () => {
    const result = parsePath(`data.items[0]['a.b']["c\\"d"].e`);
    assert.ok(result.ok);
    assert.deepEqual(
      result.segments.map((s) => (s.kind === 'key' ? s.key : s.index)),
      ['data', 'items', 0, 'a.b', 'c"d', 'e'],
    );
    assert.deepEqual(
      result.segments.map((s) => s.end),
      [4, 10, 13, 20, 28, 30],
    );
  });

  it('reports the offending offset', () => {
    const bad: [string, number][] = [
      ['', 0],
      ['a.', 2],
      ['.a', 0],
      ['a..b', 2],
      ['a[', 2],
      ['a[1', 2],
      ["a['x'", 5],
      ["a['x", 2],
      ['a[-1]', 2],
      ['a[1]b', 4],
      ["a'b", 1],
      [']', 0],
    ];
    for (const [path, index] of bad) {
      const result = parsePath(path);
      assert.ok(!result.ok, path);
      assert.equal(result.index, index, `${path}: ${result.message}`);
    }
  });
});
