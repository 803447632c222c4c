import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pooledRandomBytes } from './random-pool.js';

describe('pooledRandomBytes', () => {
  test('hands out values of the asked size, none repeated, across refills', () => {
    const random = pooledRandomBytes(100);
    const seen = new Set<string>();
    for (let index = 0; index < 1000; index += 1) {
      const value = random(32);
      assert.equal(value.length, 32);
      const text = Buffer.from(value).toString('hex');
      assert.equal(seen.has(text), false, 'a value came out twice');
      seen.add(text);
    }
  });

  test('a value is a copy: changing it changes nothing later values draw on', () => {
    const random = pooledRandomBytes(64);
    const first = random(16);
    first.fill(7);
    const second = random(16);
    assert.notDeepEqual(Buffer.from(second), Buffer.alloc(16, 7));
    assert.notDeepEqual(Buffer.from(second), Buffer.alloc(16, 0));
  });

  test('a size above the pool is drawn on its own', () => {
    const random = pooledRandomBytes(16);
    const value = random(48);
    assert.equal(value.length, 48);
    assert.notDeepEqual(Buffer.from(value), Buffer.alloc(48, 0));
  });

  test('the bytes look uniform: every byte value turns up in 64 KiB', () => {
    const random = pooledRandomBytes();
    const counts = new Array<number>(256).fill(0);
    for (let index = 0; index < 2048; index += 1)
      for (const byte of random(32)) counts[byte] = (counts[byte] ?? 0) + 1;
    // 256 expected per value; a stuck or zeroed pool would leave gaps.
    assert.ok(Math.min(...counts) > 150, `least frequent byte: ${Math.min(...counts)} times`);
  });
});
