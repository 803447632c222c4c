import type { ChangeNotifier } from '../change-notifier.js';
import type { PendingSignInStore, RateLimitStore, SessionStore } from '../types.js';
import type { RedisTarget } from './redis-connection.js';
import { closeRedis, connectRedis } from './redis-connection.js';
import { createRedisChangeNotifier } from './redis-change-notifier.js';
import { createRedisPendingSignInStore } from './redis-pending-sign-in-store.js';
import { createRedisRateLimitStore } from './redis-rate-limit-store.js';
import type { HeldBackSessions } from './redis-session-store.js';
import { createRedisSessionStore } from './redis-session-store.js';
import type { RedisRevocationFeed } from './redis-revocation-feed.js';
import { createRedisRevocationFeed } from './redis-revocation-feed.js';
import { announcingSessionStore } from '../announcing-stores.js';
import type { ReplicaConfirmedWrites } from './replica-confirmed-writes.js';
import { directWrites, openReplicaConfirmedWrites } from './replica-confirmed-writes.js';

/**
 * Behind Sentinels, the connections lent to writes that wait for a replica
 * (WAIT): each holds one write for a loopback round trip or two, so four
 * carry thousands of sign-ins and sign-outs a second; a write finding none
 * free waits for one up to acquireTimeoutMs.
 */
const confirmedWriteConnections = 4;
/** WAIT's time-out: below the commands' 2 s time-out (redis-connection.ts). */
const replicaWaitMs = 1000;
const confirmedWriteAcquireMs = 2000;

export interface RedisStores {
  readonly sessions: SessionStore;
  /**
   * Sessions for one SQL transaction, written once it has committed, their
   * endings announced after (redis-session-store.ts `heldBack`).
   */
  heldBackSessions(): HeldBackSessions;
  readonly pendingSignIns: PendingSignInStore;
  readonly rateLimits: RateLimitStore;
  readonly changes: ChangeNotifier;
  /** Revocations between instances, for the session checks they remember. */
  readonly revocations: RedisRevocationFeed;
  /** Resolves when Redis answers; for the readiness check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

interface RedisStoresOptions {
  /** One server's URL, or the Sentinels and the master's name. */
  readonly target: RedisTarget;
  /** Starts every key and channel, so several gateways can share one Redis. */
  readonly prefix: string;
}

/**
 * The state several instances share: sessions, pending sign-ins, rate-limit
 * counters, change notices and session revocations. Two connections, since
 * one in subscriber mode runs no other command (and behind Sentinels a pool
 * for the writes that wait for a replica, replica-confirmed-writes.ts); both from connectRedis, so behind Sentinels both follow a
 * failover to the new master (the subscriber's channels subscribed again by
 * ioredis, autoResubscribe). Rejects if Redis cannot be reached now.
 */
export async function openRedisStores(options: RedisStoresOptions): Promise<RedisStores> {
  const commands = await connectRedis(options.target, 'ssogate');
  let subscriber;
  let changes;
  let revocations;
  let confirmed: ReplicaConfirmedWrites | undefined;
  try {
    subscriber = await connectRedis(options.target, 'ssogate-changes');
    changes = await createRedisChangeNotifier(commands, subscriber, options.prefix);
    revocations = await createRedisRevocationFeed(commands, subscriber, options.prefix);
    // Only behind Sentinels is there a replica a write can be lost to; one
    // server keeps the plain path, with no connection or round trip more.
    if (options.target.kind === 'sentinel') {
      const target = options.target;
      confirmed = await openReplicaConfirmedWrites({
        connect: (index) =>
          connectRedis(target, `ssogate-confirmed-${index}`, { resendUnanswered: false }),
        size: confirmedWriteConnections,
        waitTimeoutMs: replicaWaitMs,
        acquireTimeoutMs: confirmedWriteAcquireMs,
      });
    }
  } catch (error) {
    await Promise.all([closeRedis(commands), subscriber && closeRedis(subscriber)]);
    throw error;
  }
  const listener = subscriber;
  const feed = revocations;
  const pool = confirmed;
  const durable = pool?.write ?? directWrites(commands);
  const sessions = createRedisSessionStore(commands, options.prefix, durable);
  return {
    sessions: announcingSessionStore(sessions, feed),
    heldBackSessions() {
      const held = sessions.heldBack();
      return {
        sessions: held.sessions,
        created: () => held.created(),
        async apply() {
          const ended = await held.apply();
          for (const idHash of ended) await feed.announce({ scope: 'session', idHash });
          return ended;
        },
      };
    },
    pendingSignIns: createRedisPendingSignInStore(commands, options.prefix, durable),
    rateLimits: createRedisRateLimitStore(commands, options.prefix),
    changes,
    revocations: feed,
    async ping() {
      await commands.ping();
    },
    async close() {
      await changes.close();
      await feed.close();
      await pool?.close();
      await Promise.all(
        [commands, listener, ...(pool?.connections ?? [])].map((redis) => closeRedis(redis)),
      );
    },
  };
}
