import type { RateLimitStore } from '../../foundation/storage/types.js';
import { clientKey } from '../rate-limit/client-key.js';
import { RateLimitedError } from '../rate-limit/rate-limited-error.js';

/**
 * The limit on wrong second-factor codes, as the local sign-in's
 * (rate-limit/failure-limit.ts): per address and user, the first failures
 * free and then a doubling wait; and, unlike a password, per user alone as
 * well, a lock-out after `perUser.maxFailures` in its window, whatever the
 * addresses: whoever reaches this page already holds the user's first
 * factor, and six digits must not be guessed from many addresses.
 */
const limits = {
  freeFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  windowMs: 60 * 60_000,
  perUser: { maxFailures: 20, windowMs: 60 * 60_000 },
} as const;

interface LimitDeps {
  readonly store: RateLimitStore;
  readonly clock: () => number;
}

const pairKey = (address: string, userRowId: number) =>
  `second-factor:${clientKey(address)}:${String(userRowId)}`;
const userKey = (userRowId: number) => `second-factor-user:${String(userRowId)}`;

function delayAfter(failures: number): number {
  if (failures < limits.freeFailures) return 0;
  return Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** (failures - limits.freeFailures));
}

/** Throws RateLimitedError while this user (from this address, or at all) must wait. */
export async function checkFactorLimit(
  deps: LimitDeps,
  address: string,
  userRowId: number,
): Promise<void> {
  const now = deps.clock();
  const [pair, user] = await Promise.all([
    deps.store.peek(pairKey(address, userRowId), now),
    deps.store.peek(userKey(userRowId), now),
  ]);
  const pairWait = pair === undefined ? 0 : pair.lastAt + delayAfter(pair.count) - now;
  if (pairWait > 0)
    throw new RateLimitedError(`${String(pair?.count ?? 0)} wrong codes from ${address}`, pairWait);
  if (user !== undefined && user.count >= limits.perUser.maxFailures)
    throw new RateLimitedError(`${String(user.count)} wrong codes for the user`, user.endsAt - now);
}

export async function recordFactorFailure(
  deps: LimitDeps,
  address: string,
  userRowId: number,
): Promise<void> {
  const now = deps.clock();
  await Promise.all([
    deps.store.hit(pairKey(address, userRowId), now, limits.windowMs),
    deps.store.hit(userKey(userRowId), now, limits.perUser.windowMs),
  ]);
}

/** A right code clears the user's failures. */
export async function recordFactorSuccess(
  deps: LimitDeps,
  address: string,
  userRowId: number,
): Promise<void> {
  await Promise.all([
    deps.store.reset(pairKey(address, userRowId)),
    deps.store.reset(userKey(userRowId)),
  ]);
}
