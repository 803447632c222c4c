import {
  deleteKeys,
  inspector,
  testPrefix,
} from '../foundation/storage/redis/test-support/redis-test-support.js';
import type { TestGateway, TestGatewayOptions } from './gateway-fixture.js';
import { startTestGateway } from './gateway-fixture.js';

export interface RedisInstances {
  readonly one: TestGateway;
  readonly two: TestGateway;
  close(): Promise<void>;
}

/**
 * Two test gateways on one Redis key prefix, as two instances of a
 * deployment: what lives in Redis (sessions, pending sign-ins, rate-limit
 * counters) is shared; their databases are not.
 */
export async function startRedisInstances(
  options: TestGatewayOptions = {},
): Promise<RedisInstances> {
  const prefix = testPrefix();
  const shared = { ...options, env: { ...options.env, SSOGATE_REDIS_PREFIX: prefix } };
  const one = await startTestGateway(shared);
  const two = await startTestGateway(shared);
  return {
    one,
    two,
    async close() {
      await Promise.all([one.close(), two.close()]);
      const redis = await inspector();
      try {
        await deleteKeys(redis, prefix);
      } finally {
        await redis.quit();
      }
    },
  };
}
