/**
 * Tells every instance that shared data changed, so in-process caches (the
 * compiled entries) are dropped everywhere at once. One process needs only
 * the local notifier; several instances use Redis pub/sub.
 */
export type ChangeTopic = 'entries';

export interface ChangeNotifier {
  /** Tells every subscriber, on every instance, this one included. */
  publish(topic: ChangeTopic): Promise<void>;
  subscribe(topic: ChangeTopic, listener: () => void): void;
  close(): Promise<void>;
}

export function localChangeNotifier(): ChangeNotifier {
  const listeners = new Map<ChangeTopic, (() => void)[]>();
  return {
    publish(topic) {
      for (const listener of listeners.get(topic) ?? []) listener();
      return Promise.resolve();
    },
    subscribe(topic, listener) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
    },
    close() {
      listeners.clear();
      return Promise.resolve();
    },
  };
}
