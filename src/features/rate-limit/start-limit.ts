import type { RateLimitStore } from '../../foundation/storage/types.js';
import { clientKey } from './client-key.js';
import { RateLimitedError } from './rate-limited-error.js';

interface StartLimits {
  readonly store: RateLimitStore;
  readonly clock: () => number;
  /** SSOGATE_SIGN_INS_PER_MINUTE: starts per client address per minute. */
  readonly perAddressPerMinute: number;
  /** SSOGATE_PENDING_SIGN_INS_MAX: starts from all clients per pending lifetime. */
  readonly allPerLifetime: number;
  /** How long a pending sign-in lives (SSOGATE_PENDING_SIGN_IN_MINUTES). */
  readonly lifetimeMs: number;
}

/**
 * Counts a sign-in start and throws RateLimitedError when it is over a limit.
 * Each start stores a pending sign-in, so starts are storage an anonymous
 * client can create: per address they are limited against automation, and
 * across all addresses so that one rotating addresses and cookies cannot grow
 * the store without bound either. A pending sign-in lives one lifetime and is
 * deleted at its expiry (Redis) or within a sweep interval after it
 * (app/expiry-sweep.ts), so a few times `allPerLifetime` at most exist at
 * any time (docs/configuration.md, "Rate limits").
 */
export async function countSignInStart(limits: StartLimits, address: string): Promise<void> {
  const now = limits.clock();
  const mine = await limits.store.hit(`sign-in-start:${clientKey(address)}`, now, 60_000);
  if (mine.count > limits.perAddressPerMinute) {
    throw new RateLimitedError(
      `more than ${limits.perAddressPerMinute} sign-in starts in a minute from ${address}`,
      mine.endsAt - now,
    );
  }
  const all = await limits.store.hit('sign-in-start', now, limits.lifetimeMs);
  if (all.count > limits.allPerLifetime) {
    throw new RateLimitedError(
      `more than ${limits.allPerLifetime} sign-ins started within one pending lifetime`,
      all.endsAt - now,
    );
  }
}
