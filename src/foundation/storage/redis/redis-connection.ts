import { Redis } from 'ioredis';

/**
 * Fail-fast settings: a request must never wait on a dead Redis. No offline
 * queue (a command while disconnected fails at once), one retry, and bounded
 * connect and command times; reconnection goes on forever in the background,
 * at most a second apart, so the gateway recovers without a restart.
 */
const failFastOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
  commandTimeout: 2000,
  retryStrategy: (attempt: number): number => Math.min(attempt * 100, 1000),
} as const;

/**
 * Opens one connection and waits until it is ready. A Redis unreachable at
 * start fails the open (rather than a gateway that only errors later).
 */
export async function connectRedis(url: string, name: string): Promise<Redis> {
  const redis = new Redis(url, { ...failFastOptions, connectionName: name });
  // ioredis emits 'error' on every failed reconnection; unheard, Node would
  // crash the process. Each failing command rejects on its own anyway.
  redis.on('error', () => {
    // nothing: readiness and the failing requests report the outage
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot connect to Redis at ${redactUrl(url)}`, { cause: error });
  }
  return redis;
}

/** Quits politely when connected; drops the socket otherwise (no queue to wait on). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // fall through: the connection broke while quitting
    }
  }
  redis.disconnect();
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}
