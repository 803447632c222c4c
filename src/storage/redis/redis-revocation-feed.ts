import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AnnouncingRevocationFeed } from '../session-revocations.js';
import {
  Acknowledgements,
  RevocationListeners,
  revocationFrom,
  subjectOf,
} from '../session-revocations.js';

/** Published on Redis; `announce` waits at most `ackTimeoutMs`. */
export type RedisRevocationFeed = AnnouncingRevocationFeed;

export interface RedisRevocationFeedOptions {
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
  const listeners = new RevocationListeners();
  const waiting = new Map<string, Acknowledgements>();
  let live = false;
  let pingOutstanding = false;
  let nonceCounter = 0;

  const acknowledged = (nonce: string): void => {
    const wait = waiting.get(nonce);
    if (wait === undefined) return;
    wait.count += 1;
    if (wait.count >= wait.expected) wait.done();
  };

  const distrust = (): void => {
    live = false;
    listeners.run({ scope: 'all' });
  };

  /** Trust again once Redis has answered a ping sent after every (re-)subscription. */
  const confirm = (): void => {
    pingOutstanding = true;
    subscriber.ping().then(
      () => {
        pingOutstanding = false;
        if (subscriber.status === 'ready') live = true;
      },
      () => {
        // The connection broke ('close' has distrusted) or the ping timed out:
        // the next beat pings again.
        pingOutstanding = false;
      },
    );
  };

  subscriber.on('message', (from: string, message: string) => {
    if (from === ownAcks) {
      acknowledged(message);
      return;
    }
    if (from !== channel) return;
    const [sender = '', nonce = '', scope = '', ...rest] = message.split(' ');
    if (sender === instanceId) {
      acknowledged(nonce);
      return;
    }
    listeners.run(revocationFrom(scope, rest.join(' ')) ?? { scope: 'all' });
    publisher.publish(ackChannel(sender), nonce).catch(() => {
      // The sender stops waiting at its time-out.
    });
  });
  for (const event of ['close', 'reconnecting', 'end']) subscriber.on(event, distrust);
  subscriber.on('ready', confirm);
  await subscriber.subscribe(channel, ownAcks);
  live = true;

  const heartbeat = setInterval(() => {
    if (pingOutstanding) {
      if (live) distrust();
      return;
    }
    if (subscriber.status === 'ready') confirm();
  }, heartbeatMs);
  heartbeat.unref();

  return {
    listen(listener) {
      listeners.add(listener);
    },
    catchUp: () => live,
    async announce(revocation) {
      listeners.run(revocation);
      nonceCounter += 1;
      const nonce = String(nonceCounter);
      const wait = new Acknowledgements();
      waiting.set(nonce, wait);
      const timer = setTimeout(() => {
        wait.done();
      }, ackTimeoutMs);
      try {
        const message = `${instanceId} ${nonce} ${revocation.scope} ${subjectOf(revocation)}`;
        wait.expect(await publisher.publish(channel, message));
        await wait.finished;
      } finally {
        clearTimeout(timer);
        waiting.delete(nonce);
      }
    },
    close() {
      clearInterval(heartbeat);
      listeners.clear();
      for (const wait of waiting.values()) wait.done();
      return Promise.resolve();
    },
  };
}
