import type { RateLimitStore } from '../../foundation/storage/types.js';
import { clientKey } from './client-key.js';
import { RateLimitedError } from './rate-limited-error.js';

/**
 * The local sign-in limit. Failures count per client address and account
 * together, never per account alone: a stranger failing for `admin` slows
 * down only their own address, and the administrator signs in from theirs.
 * The first failures are free; from then on each one doubles the wait before
 * the next try from that address for that account, up to a ceiling. Across
 * accounts, an address has a plain cap, against one address guessing many
 * accounts.
 */
const localSignInLimits = {
  freeFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  /** Failures of an address for an account are forgotten this long after the first. */
  windowMs: 60 * 60_000,
  perAddress: { maxFailures: 100, windowMs: 15 * 60_000 },
} as const;

interface FailureLimitDeps {
  readonly store: RateLimitStore;
  readonly clock: () => number;
}

/**
 * One spelling per account for the limit: `Admin`, ` admin` and `ＡＤＭＩＮ`
 * are the same account (the form trims the name; user ids compare as stored).
 */
function accountKey(username: string): string {
  return username.normalize('NFKC').trim().toLowerCase();
}

/** How long after the last of `failures` the next try must wait. */
function delayAfter(failures: number): number {
  const { freeFailures, firstDelayMs, maxDelayMs } = localSignInLimits;
  if (failures < freeFailures) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** (failures - freeFailures));
}

const pairKey = (address: string, username: string) =>
  `local-sign-in:${clientKey(address)}:${accountKey(username)}`;
const addressKey = (address: string) => `local-sign-in:${clientKey(address)}`;

/** Throws RateLimitedError while this address must wait before trying this account again. */
export async function checkLocalSignIn(
  deps: FailureLimitDeps,
  address: string,
  username: string,
): Promise<void> {
  const now = deps.clock();
  const [pair, all] = await Promise.all([
    deps.store.peek(pairKey(address, username), now),
    deps.store.peek(addressKey(address), now),
  ]);
  const pairWait = pair === undefined ? 0 : pair.lastAt + delayAfter(pair.count) - now;
  if (pairWait > 0) {
    throw new RateLimitedError(
      `${pair?.count ?? 0} failed local sign-ins from ${address} for this account`,
      pairWait,
    );
  }
  if (all !== undefined && all.count >= localSignInLimits.perAddress.maxFailures) {
    throw new RateLimitedError(
      `${all.count} failed local sign-ins from ${address}`,
      all.endsAt - now,
    );
  }
}

export async function recordLocalSignInFailure(
  deps: FailureLimitDeps,
  address: string,
  username: string,
): Promise<void> {
  const now = deps.clock();
  await Promise.all([
    deps.store.hit(pairKey(address, username), now, localSignInLimits.windowMs),
    deps.store.hit(addressKey(address), now, localSignInLimits.perAddress.windowMs),
  ]);
}

/** A right password clears the address's failures for that account (not its address-wide count). */
export async function recordLocalSignInSuccess(
  deps: FailureLimitDeps,
  address: string,
  username: string,
): Promise<void> {
  await deps.store.reset(pairKey(address, username));
}
