import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazyModule } from './lazy-module.js';

test('a lazy module is loaded at its first use, once, and shared by calls made while it loads', async () => {
  let loads = 0;
  const load = lazyModule(async () => {
    loads += 1;
    await new Promise((resolve) => setImmediate(resolve));
    return { value: 42 };
  });
  assert.equal(loads, 0);
  const [first, second] = await Promise.all([load(), load()]);
  assert.equal(loads, 1);
  assert.equal(first, second);
  assert.equal(await load(), first);
  assert.equal(loads, 1);
});

test('a failed load is not kept: the next use tries again', async () => {
  let loads = 0;
  const load = lazyModule(() => {
    loads += 1;
    return loads === 1 ? Promise.reject(new Error('not there')) : Promise.resolve('loaded');
  });
  await assert.rejects(load(), /not there/);
  assert.equal(await load(), 'loaded');
  assert.equal(await load(), 'loaded');
  assert.equal(loads, 2);
});
