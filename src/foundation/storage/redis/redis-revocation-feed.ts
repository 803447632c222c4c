import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RevocationAnnouncements } from '../revocation-announcements.js';
import type { AnnouncingRevocationFeed } from '../session-revocations.js';

/** Published on Redis; `announce` waits at most `ackTimeoutMs`. */
export type RedisRevocationFeed = AnnouncingRevocationFeed;

interface RedisRevocationFeedOptions {
  /** How long an announcement waits for the instances' acknowledgements. */
  readonly ackTimeoutMs?: number;
  /** How often the subscriber connection is pinged; an unanswered ping stops trust. */
  readonly heartbeatMs?: number;
}

/**
 * Revocations between instances over Redis pub/sub, on `${prefix}revocations`:
 * `instanceId nonce scope subject`. Each instance applies the others'
 * revocations and acknowledges each on the sender's own channel
 * (`${prefix}revocation-acks:${instanceId}`); the sender counts its own
 * delivery, and waits until as many acknowledgements arrived as PUBLISH said
 * it reached subscribers. So when a sign-out is answered, every instance
 * connected to Redis has already forgotten the session: the next request,
 * wherever it lands, is refused.
 *
 * An instance trusts what it remembers only while its subscriber connection
 * is known to be live: when it closes, starts reconnecting, or leaves a
 * heartbeat ping unanswered for a whole period, everything is forgotten and
 * nothing is remembered until a ping is answered again (after a reconnection,
 * one sent after the re-subscription, so none published since is missed).
 *
 * `subscriber` must be a connection of its own (subscriber mode); it may be
 * shared with the change notifier (redis-change-notifier.ts).
 */
export async function createRedisRevocationFeed(
  publisher: Redis,
  subscriber: Redis,
  prefix: string,
  options: RedisRevocationFeedOptions = {},
): Promise<RedisRevocationFeed> {
  const ackTimeoutMs = options.ackTimeoutMs ?? 2000;
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const channel = `${prefix}revocations`;
  const instanceId = randomUUID();
  const ackChannel = (id: string) => `${prefix}revocation-acks:${id}`;
  const ownAcks = ackChannel(instanceId);
  const feed = new RevocationAnnouncements({
    instanceId,
    ackTimeoutMs,
    acknowledge: (sender, nonce) => publisher.publish(ackChannel(sender), nonce),
  });
  const distrust = () => {
    feed.distrust();
  };
  /** Trust again once Redis has answered a ping sent after every (re-)subscription. */
  const confirm = () => {
    feed.confirm(
      () => subscriber.ping(),
      () => subscriber.status === 'ready',
    );
  };

  subscriber.on('message', (from: string, message: string) => {
    if (from === ownAcks) feed.acknowledged(message);
    else if (from === channel) feed.heard(message);
  });
  for (const event of ['close', 'reconnecting', 'end']) subscriber.on(event, distrust);
  subscriber.on('ready', confirm);
  await subscriber.subscribe(channel, ownAcks);
  feed.live = true;

  feed.startHeartbeat(heartbeatMs, () => {
    if (subscriber.status === 'ready') confirm();
  });

  return {
    listen(listener) {
      feed.listeners.add(listener);
    },
    catchUp: () => feed.live,
    announce: (revocation) =>
      feed.announce(revocation, (message) => publisher.publish(channel, message)),
    close() {
      feed.close();
      return Promise.resolve();
    },
  };
}
