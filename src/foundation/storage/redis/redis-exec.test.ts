import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { freePort } from '../../../test-support/free-port.js';
import { closeRedis, connectRedis } from './redis-connection.js';
import { redisScript } from './redis-exec.js';
import { PrivateRedisServer, redisServerInstalled } from './test-support/private-redis-server.js';

const skip =
  process.env.CI !== 'true' && !redisServerInstalled() ? 'redis-server is not installed' : false;

/**
 * Scripts run by their SHA-1, their text sent only when Redis lacks them: on
 * a Redis of its own, whose script cache the test empties as a restart would.
 */
describe('a Redis script', { skip }, () => {
  let server: PrivateRedisServer;
  let redis: Redis;
  before(async () => {
    server = new PrivateRedisServer(await freePort());
    await server.start();
    redis = await connectRedis({ kind: 'url', url: server.url }, 'script-test');
  });
  after(async () => {
    await closeRedis(redis);
    await server.stop();
  });

  test('runs by its SHA-1 once Redis holds it, and sends its text again after a flush', async () => {
    const text = "return redis.call('incrby', KEYS[1], ARGV[1])";
    const add = redisScript(redis, text);
    assert.equal(await add(['counter'], ['2']), 2, 'the first call loads it');
    const stats = async () => {
      const info = await redis.info('commandstats');
      const calls = (name: string) =>
        Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
      return { eval: calls('eval'), evalsha: calls('evalsha') };
    };
    const before = await stats();
    assert.equal(await add(['counter'], ['3']), 5);
    const after = await stats();
    assert.deepEqual(
      { eval: after.eval - before.eval, evalsha: after.evalsha - before.evalsha },
      { eval: 0, evalsha: 1 },
      'by its SHA-1 alone',
    );
    await redis.script('FLUSH');
    assert.equal(await add(['counter'], ['1']), 6, 'NOSCRIPT, then its text');
  });

  test("a script's own error is the caller's, not retried", async () => {
    const fail = redisScript(redis, "return redis.error_reply('refused here')");
    await assert.rejects(fail([], []), /refused here/);
  });
});
