import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChangeNotifier, ChangeTopic } from '../change-notifier.js';

const topics: readonly ChangeTopic[] = ['entries'];

/**
 * Change notices over Redis pub/sub on `${prefix}changes`. The message is
 * `instanceId topic`: the publishing instance runs its own listeners directly
 * (so they run even while Redis is down) and skips its own echo, so each
 * listener runs exactly once per publish everywhere.
 *
 * `subscriber` must be a connection of its own: in subscriber mode a
 * connection runs no other command.
 */
export async function createRedisChangeNotifier(
  publisher: Redis,
  subscriber: Redis,
  prefix: string,
): Promise<ChangeNotifier> {
  const channel = `${prefix}changes`;
  const instanceId = randomUUID();
  const listeners = new Map<ChangeTopic, (() => void)[]>();
  const runListeners = (topic: ChangeTopic) => {
    for (const listener of listeners.get(topic) ?? []) listener();
  };

  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const [sender, topic] = message.split(' ');
    if (sender === instanceId) return;
    const known = topics.find((candidate) => candidate === topic);
    if (known !== undefined) runListeners(known);
  });
  await subscriber.subscribe(channel);
  // Notices published while this instance was cut off are lost: after a
  // reconnection (the connection was ready before this point, so any later
  // 'ready' is one) every cache is dropped, as if each topic had changed.
  subscriber.on('ready', () => {
    for (const topic of topics) runListeners(topic);
  });

  return {
    async publish(topic) {
      runListeners(topic);
      await publisher.publish(channel, `${instanceId} ${topic}`);
    },
    subscribe(topic, listener) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
    },
    async close() {
      listeners.clear();
      await Promise.resolve();
    },
  };
}
