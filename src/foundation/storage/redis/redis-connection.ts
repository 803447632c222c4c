import { Redis } from 'ioredis';

/**
 * Where Redis is: one server's URL, or the master of a group the Sentinels
 * watch (the same shape as the configuration's, config/redis-settings.ts).
 */
export type RedisTarget =
  | { readonly kind: 'url'; readonly url: string }
  | {
      readonly kind: 'sentinel';
      readonly sentinels: readonly { readonly host: string; readonly port: number }[];
      readonly masterName: string;
      readonly password: string | undefined;
      readonly sentinelPassword: string | undefined;
    };

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
  // A server that has become a replica while this connection stayed open
  // refuses writes with READONLY: the connection is dropped (the command
  // still fails, there is no queue to resend it from) and the next one asks
  // the Sentinels where the master is now.
  reconnectOnError: (error: Error): 1 | false => error.message.startsWith('READONLY') && 1,
} as const;

/**
 * Behind Sentinels: every connection, and every reconnection, asks them for
 * the current master and checks its ROLE before use (role 'master'), so
 * writes never go to a replica. The failover detector listens to the
 * Sentinels' +switch-master and drops the connection at once, rather than
 * when the old master (if it is still reachable) is told to become a
 * replica. Sentinels unreachable are retried at most a second apart, like
 * the server itself.
 */
function sentinelOptions(target: Extract<RedisTarget, { kind: 'sentinel' }>) {
  return {
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.masterName,
    role: 'master' as const,
    failoverDetector: true,
    sentinelRetryStrategy: (attempt: number): number => Math.min(attempt * 100, 1000),
    sentinelCommandTimeout: 2000,
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
  };
}

interface ConnectOptions {
  /**
   * Whether commands sent but unanswered when the connection broke are sent
   * again after it reconnects (ioredis's default). Not for a connection
   * whose WAIT must reach the server its write reached
   * (replica-confirmed-writes.ts): there they time out instead.
   */
  readonly resendUnanswered?: boolean;
}

/**
 * The one place a Redis connection is made: the commands' connection, the
 * subscriber's and the doctor's all come from here, so all follow a
 * failover alike. Opens one connection and waits until it is ready. A Redis
 * unreachable at start fails the open (rather than a gateway that only
 * errors later).
 */
export async function connectRedis(
  target: RedisTarget,
  name: string,
  options: ConnectOptions = {},
): Promise<Redis> {
  const own = {
    ...failFastOptions,
    connectionName: name,
    autoResendUnfulfilledCommands: options.resendUnanswered ?? true,
  };
  const redis =
    target.kind === 'url'
      ? new Redis(target.url, own)
      : new Redis({ ...own, ...sentinelOptions(target) });
  // ioredis emits 'error' on every failed reconnection; unheard, Node would
  // crash the process. Each failing command rejects on its own anyway.
  redis.on('error', () => {
    // nothing: readiness and the failing requests report the outage
  });
  if (target.kind === 'sentinel') hearSentinelClients(redis);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot connect to Redis at ${describeRedisTarget(target)}`, { cause: error });
  }
  return redis;
}

/**
 * ioredis's failover detector opens a connection to each Sentinel with no
 * 'error' listener of its own, so a Sentinel unreachable wrote "[ioredis]
 * Unhandled error event" and a stack to stderr on every attempt, bypassing
 * the gateway's logs. Its connections are made by the connector's
 * connectToSentinel; wrapped on this one connection, each gets a listener
 * (the Sentinels' outage is reported like the master's: by readiness and
 * the failing requests). A connector of another shape is left as it is.
 */
function hearSentinelClients(redis: Redis): void {
  const connector = (redis as unknown as { connector?: unknown }).connector as
    { connectToSentinel?: (...args: unknown[]) => unknown } | undefined;
  const original = connector?.connectToSentinel;
  if (connector === undefined || typeof original !== 'function') return;
  connector.connectToSentinel = (...args: unknown[]) => {
    // ioredis's Redis mixes EventEmitter in (no instanceof): by its shape.
    const client = original.apply(connector, args) as { on?: unknown };
    if (typeof client.on === 'function') {
      (client as { on: (event: string, listener: () => void) => unknown }).on('error', () => {
        // nothing: see above
      });
    }
    return client;
  };
}

/** Where Redis is, without its passwords, for messages and logs. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'url') return redactUrl(target.url);
  const sentinels = target.sentinels
    .map(({ host, port }) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`))
    .join(',');
  return `master ${target.masterName} of the Sentinels ${sentinels}`;
}

/**
 * Quits politely when connected, then drops whatever is left: behind
 * Sentinels, QUIT ends the connection to the master but not the failover
 * detector's connections to the Sentinels, which only disconnect() closes;
 * left open, they would keep a finished process (a command of the command
 * line, a stopped gateway) from exiting.
 */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    if (redis.status === 'ready') await redis.quit();
  } catch {
    // the connection broke while quitting: dropped below all the same
  } finally {
    redis.disconnect();
  }
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
