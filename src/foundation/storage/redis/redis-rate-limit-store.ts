import type { Redis } from 'ioredis';
import type { RateLimitStore, RateWindow } from '../types.js';

// One script, so the check of the window's end, the reset and the count are
// one atomic step however many instances hit the key at once. `now` is the
// caller's clock (as everywhere in storage), so an injected test clock works;
// the TTL only lets Redis forget the key once its window is over.
const hitScript = `
local now = tonumber(ARGV[1])
local endsAt = tonumber(redis.call('hget', KEYS[1], 'endsAt'))
if endsAt == nil or endsAt <= now then
  endsAt = now + tonumber(ARGV[2])
  redis.call('del', KEYS[1])
  redis.call('hset', KEYS[1], 'endsAt', endsAt)
  redis.call('pexpire', KEYS[1], ARGV[2])
end
local count = redis.call('hincrby', KEYS[1], 'count', 1)
redis.call('hset', KEYS[1], 'lastAt', ARGV[1])
return {count, endsAt}`;

/**
 * Rate-limit counters in Redis, one hash per key under `${prefix}rate:`,
 * shared by every instance: a limit holds for the deployment, not per
 * process.
 */
export function createRedisRateLimitStore(redis: Redis, prefix: string): RateLimitStore {
  const rateKey = (key: string) => `${prefix}rate:${key}`;

  return {
    async hit(key, now, windowMs) {
      const reply = await redis.eval(
        hitScript,
        1,
        rateKey(key),
        String(now),
        String(Math.max(1, windowMs)),
      );
      const [count, endsAt] = (Array.isArray(reply) ? reply : []) as unknown[];
      if (typeof count !== 'number' || typeof endsAt !== 'number') {
        throw new Error('unexpected reply from the Redis rate-limit script');
      }
      return { count, endsAt, lastAt: now };
    },

    async peek(key, now) {
      const [count, endsAt, lastAt] = await redis.hmget(rateKey(key), 'count', 'endsAt', 'lastAt');
      const window: RateWindow = {
        count: Number(count),
        endsAt: Number(endsAt),
        lastAt: Number(lastAt),
      };
      const valid = [window.count, window.endsAt, window.lastAt].every(Number.isSafeInteger);
      return valid && count !== null && window.endsAt > now ? window : undefined;
    },

    async reset(key) {
      await redis.del(rateKey(key));
    },
  };
}
