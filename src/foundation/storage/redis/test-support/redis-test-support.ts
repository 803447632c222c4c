import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import { Redis } from 'ioredis';
import type { RedisStores } from '../open-redis-stores.js';
import { openRedisStores } from '../open-redis-stores.js';

/** The machine's Redis; CI may point elsewhere with SSOGATE_TEST_REDIS_URL. */
export const testRedisUrl = process.env.SSOGATE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The `skip` option for a Redis test suite: a skip message when no Redis
 * answers on a developer machine, false otherwise. Under CI the suite always
 * runs, so a missing Redis fails it instead of passing silently.
 */
export async function redisSkip(): Promise<string | false> {
  if (process.env.CI === 'true') return false;
  const probe = new Redis(testRedisUrl, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {
    // the rejected connect() below says it
  });
  try {
    await probe.connect();
    await probe.quit();
    return false;
  } catch {
    probe.disconnect();
    return 'no Redis at 127.0.0.1:6379';
  }
}

/** A prefix no other test run shares, so runs never see each other's keys. */
export function testPrefix(): string {
  return `ssogate-test:${randomUUID()}:`;
}

/** A plain connection for looking at and cleaning up the keys directly. */
export async function inspector(): Promise<Redis> {
  const redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}

/** Deletes every key under the prefix (SCAN, never KEYS, on a shared server). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface RedisSuite {
  /** The suite's own key prefix. */
  readonly prefix: string;
  /** The stores opened before the suite, on the suite's prefix. */
  stores(): RedisStores;
  /** A plain connection for looking at keys directly. */
  redis(): Redis;
  /** More stores (another instance, or another prefix), closed after the suite. */
  open(prefix?: string): Promise<RedisStores>;
}

/**
 * The preamble of every suite that talks to Redis itself. Call it inside
 * `describe(name, { skip: await redisSkip() }, ...)`: before the suite it
 * opens the stores on a prefix of the suite's own and an inspecting
 * connection; after it, every key under the prefix is deleted and every
 * connection it opened is closed.
 */
export function useRedisSuite(): RedisSuite {
  const prefix = testPrefix();
  const opened: RedisStores[] = [];
  let inspecting: Redis | undefined;
  const open = async (storesPrefix = prefix): Promise<RedisStores> => {
    const stores = await openRedisStores({
      target: { kind: 'url', url: testRedisUrl },
      prefix: storesPrefix,
    });
    opened.push(stores);
    return stores;
  };
  before(async () => {
    await open();
    inspecting = await inspector();
  });
  after(async () => {
    if (inspecting !== undefined) {
      await deleteKeys(inspecting, prefix);
      await inspecting.quit();
    }
    await Promise.all(opened.map((stores) => stores.close()));
  });
  return {
    prefix,
    stores: () => defined(opened[0]),
    redis: () => defined(inspecting),
    open,
  };
}

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the Redis suite has not started yet');
  return value;
}
