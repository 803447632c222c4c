import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../../../test-support/free-port.js';
import { isBackendUnavailable } from '../backend-errors.js';
import { openRedisStores } from './open-redis-stores.js';
import { redactUrl } from './redis-connection.js';
import { redisSkip, testPrefix, testRedisUrl } from './test-support/redis-test-support.js';

const skip = await redisSkip();

describe('openRedisStores', () => {
  test(
    'ping answers while open and fails fast, as unavailable, after close',
    { skip },
    async () => {
      const stores = await openRedisStores({
        target: { kind: 'url', url: testRedisUrl },
        prefix: testPrefix(),
      });
      await stores.ping();
      await stores.close();
      await assert.rejects(stores.ping(), (error) => isBackendUnavailable(error));
      await stores.close(); // twice is harmless
    },
  );

  test('an unreachable Redis fails the open quickly with a clear error', async () => {
    const port = await freePort();
    const startedAt = Date.now();
    await assert.rejects(
      openRedisStores({
        target: { kind: 'url', url: `redis://:hunter2@127.0.0.1:${port}` },
        prefix: 'x:',
      }),
      (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, /^cannot connect to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:/);
        assert.doesNotMatch(error.message, /hunter2/);
        assert.ok(isBackendUnavailable(error));
        return true;
      },
    );
    assert.ok(Date.now() - startedAt < 3000);
    // No reconnection loop is left behind: the test process would not exit.
  });

  test('redactUrl hides the password only', () => {
    assert.equal(redactUrl('redis://u:p@h:1/0'), 'redis://u:***@h:1/0');
    assert.equal(redactUrl('redis://h:1'), 'redis://h:1');
    assert.equal(redactUrl('::'), 'the configured URL');
  });
});
