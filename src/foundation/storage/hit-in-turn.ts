import type { LimitedHit, RateLimitStore, RateWindow } from './types.js';

/**
 * RateLimitStore.hitInTurn over the store's own `hit`, one hit after the
 * other: for the stores whose hit costs no round trip (memory) or whose
 * hits would not be one step anyway (SQL, one statement each).
 */
export async function hitOneByOne(
  store: Pick<RateLimitStore, 'hit'>,
  hits: readonly LimitedHit[],
  now: number,
): Promise<RateWindow[]> {
  const windows: RateWindow[] = [];
  for (const { key, windowMs, limit } of hits) {
    const window = await store.hit(key, now, windowMs);
    windows.push(window);
    if (window.count > limit) break;
  }
  return windows;
}
