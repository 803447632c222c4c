import type { Redis } from 'ioredis';
import type { LimitedHit, RateLimitStore, RateWindow } from '../types.js';
import { redisScript } from './redis-exec.js';

// One script, so the check of each window's end, the reset and the count are
// one atomic step however many instances hit the keys at once. `now` is the
// caller's clock (as everywhere in storage), so an injected test clock works;
// the TTL only lets Redis forget a key once its window is over. Each key in
// turn, ARGV[2i] its window and ARGV[2i+1] its limit: a count over its limit
// stops there, so a refused hit counts nothing after it (hitInTurn).
const hitInTurnScript = `
local now = tonumber(ARGV[1])
local windows = {}
for i, key in ipairs(KEYS) do
  local windowMs = ARGV[2 * i]
  local endsAt = tonumber(redis.call('hget', key, 'endsAt'))
  if endsAt == nil or endsAt <= now then
    endsAt = now + tonumber(windowMs)
    redis.call('del', key)
    redis.call('hset', key, 'endsAt', endsAt)
    redis.call('pexpire', key, windowMs)
  end
  local count = redis.call('hincrby', key, 'count', 1)
  redis.call('hset', key, 'lastAt', ARGV[1])
  windows[#windows + 1] = count
  windows[#windows + 1] = endsAt
  if count > tonumber(ARGV[2 * i + 1]) then break end
end
return windows`;

/**
 * Rate-limit counters in Redis, one hash per key under `${prefix}rate:`,
 * shared by every instance: a limit holds for the deployment, not per
 * process.
 */
export function createRedisRateLimitStore(redis: Redis, prefix: string): RateLimitStore {
  const rateKey = (key: string) => `${prefix}rate:${key}`;
  const script = redisScript(redis, hitInTurnScript);

  const hitInTurn = async (hits: readonly LimitedHit[], now: number): Promise<RateWindow[]> => {
    if (hits.length === 0) return [];
    const reply = await script(
      hits.map((hit) => rateKey(hit.key)),
      [
        String(now),
        ...hits.flatMap((hit) => [String(Math.max(1, hit.windowMs)), String(hit.limit)]),
      ],
    );
    const counted = (Array.isArray(reply) ? reply : []) as unknown[];
    const windows: RateWindow[] = [];
    for (let index = 0; index < counted.length; index += 2) {
      const [count, endsAt] = [counted[index], counted[index + 1]];
      if (typeof count !== 'number' || typeof endsAt !== 'number') break;
      windows.push({ count, endsAt, lastAt: now });
    }
    if (windows.length === 0 || windows.length * 2 !== counted.length) {
      throw new Error('unexpected reply from the Redis rate-limit script');
    }
    return windows;
  };

  return {
    async hit(key, now, windowMs) {
      const [window] = await hitInTurn([{ key, windowMs, limit: Number.MAX_SAFE_INTEGER }], now);
      if (window === undefined)
        throw new Error('unexpected reply from the Redis rate-limit script');
      return window;
    },

    hitInTurn,

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
