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
  // In turn, in one step: the global count must not count a start the
  // address's limit refused, or one address could spend everyone's starts.
  const [mine, all] = await limits.store.hitInTurn(
    [
      {
        key: `sign-in-start:${clientKey(address)}`,
        windowMs: 60_000,
        limit: limits.perAddressPerMinute,
      },
      { key: 'sign-in-start', windowMs: limits.lifetimeMs, limit: limits.allPerLifetime },
    ],
    now,
  );
  if (mine !== undefined && mine.count > limits.perAddressPerMinute) {
    throw new RateLimitedError(
      `more than ${limits.perAddressPerMinute} sign-in starts in a minute from ${address}`,
      mine.endsAt - now,
    );
  }
  if (all !== undefined && all.count > limits.allPerLifetime) {
    throw new RateLimitedError(
      `more than ${limits.allPerLifetime} sign-ins started within one pending lifetime`,
      all.endsAt - now,
    );
  }
}
