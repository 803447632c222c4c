import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RedisStores } from './open-redis-stores.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import { redisSkip, sleep, testPrefix, useRedisSuite } from './test-support/redis-test-support.js';

const skip = await redisSkip();

describe('Redis change notifier', { skip }, () => {
  const suite = useRedisSuite();
  let a: RedisStores;
  let b: RedisStores;
  let elsewhere: RedisStores;
  const heard = { a: 0, b: 0, elsewhere: 0 };

  before(async () => {
    a = suite.stores();
    b = await suite.open();
    elsewhere = await suite.open(testPrefix());
    a.changes.subscribe('entries', () => heard.a++);
    b.changes.subscribe('entries', () => heard.b++);
    elsewhere.changes.subscribe('entries', () => heard.elsewhere++);
  });

  test('a publish reaches every instance on the prefix once, its own included', async () => {
    await a.changes.publish('entries');
    // The publisher's own listeners run before publish resolves.
    assert.equal(heard.a, 1);
    await waitUntil(() => heard.b === 1, {
      message: 'the other instance to hear it',
      timeoutMs: 2000,
    });
    // Time for a stray echo or a cross-prefix delivery to show up.
    await sleep(150);
    assert.deepEqual(heard, { a: 1, b: 1, elsewhere: 0 });

    await b.changes.publish('entries');
    await waitUntil(() => heard.a === 2, {
      message: 'the first instance to hear it',
      timeoutMs: 2000,
    });
    await sleep(150);
    assert.deepEqual(heard, { a: 2, b: 2, elsewhere: 0 });
  });
});
