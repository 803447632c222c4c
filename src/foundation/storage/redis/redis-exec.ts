import { createHash } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';

/**
 * Runs a MULTI and returns each command's reply. ioredis reports a failed
 * command inside EXEC as an [error, reply] pair rather than a rejection, and
 * resolves null when EXEC was aborted; both become a thrown error here.
 */
export async function execOrThrow(multi: ChainableCommander): Promise<unknown[]> {
  const results = await multi.exec();
  if (results === null) throw new Error('Redis transaction aborted');
  return results.map(([error, reply]) => {
    if (error !== null) throw error;
    return reply;
  });
}

/**
 * Runs a Lua script: its keys, then its arguments, on `on` when given (a
 * connection lent for a confirmed write, replica-confirmed-writes.ts).
 */
type RedisScript = (
  keys: readonly string[],
  args: readonly string[],
  on?: Redis,
) => Promise<unknown>;

/**
 * A Lua script sent by its SHA-1 (EVALSHA), its text only when this Redis
 * does not hold it yet (after a restart, a SCRIPT FLUSH, a fail-over): the
 * text of a script is a few hundred bytes that EVAL would send, and Redis
 * hash, at every call.
 */
export function redisScript(redis: Redis, text: string): RedisScript {
  const sha = createHash('sha1').update(text).digest('hex');
  return async (keys, args, on = redis) => {
    try {
      return await on.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return on.eval(text, keys.length, ...keys, ...args);
    }
  };
}
