import { hitOneByOne } from './hit-in-turn.js';
import type { RateLimitStore, RateWindow } from './types.js';

/** Keys held at most; an attacker choosing keys cannot grow the map further. */
const defaultMaxKeys = 100_000;

/**
 * Rate-limit counters in this process's memory: the store of a gateway
 * without Redis, whose limits then hold per instance. Bounded: when full,
 * ended windows are dropped, then the oldest keys.
 */
export function createMemoryRateLimitStore(maxKeys = defaultMaxKeys): RateLimitStore {
  const windows = new Map<string, RateWindow>();

  const open = (key: string, now: number): RateWindow | undefined => {
    const window = windows.get(key);
    if (window !== undefined && window.endsAt <= now) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };

  const makeRoom = (now: number): void => {
    if (windows.size < maxKeys) return;
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
    // A Map iterates in insertion order: the first keys are the oldest windows.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  };

  const store: RateLimitStore = {
    hit(key, now, windowMs) {
      const current = open(key, now);
      if (current === undefined) makeRoom(now);
      const next: RateWindow = {
        count: (current?.count ?? 0) + 1,
        endsAt: current?.endsAt ?? now + windowMs,
        lastAt: now,
      };
      windows.set(key, next);
      return Promise.resolve(next);
    },
    peek(key, now) {
      return Promise.resolve(open(key, now));
    },
    hitInTurn(hits, now) {
      return hitOneByOne(store, hits, now);
    },
    reset(key) {
      windows.delete(key);
      return Promise.resolve();
    },
  };
  return store;
}
