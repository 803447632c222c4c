import type { SessionRecord } from '../storage/types.js';

/**
 * Whether a sign-in is still on by what is known of it, and if not, why (the
 * reason its end is raised with: storage/sign-in-ends.ts).
 */
type SessionLiveness = 'live' | 'sign_in_over' | 'user_locked' | 'entry_sessions_ended';

/**
 * The one rule of whether a session is still on: the session not past its
 * absolute end, the sign-in it belongs to (itself, or for a host's session
 * the one it was handed from) neither past its end nor idle for `idleMs`,
 * its user enabled, and its entry enabled (a local sign-in has none: true).
 * Checked in that order, so an expired session is `sign_in_over` whatever
 * else changed. Pure and allocation-free, for the hot paths: every check of
 * a session calls it (sessions/session-service.ts resolveSession, the
 * session cache's remembered sessions, the OpenID Provider's grants); a
 * caller that knows the user or the entry unchanged (the cache, whose
 * revocations forget a changed one) passes true. A refused re-validation
 * is the caller's, asked only of a session found live.
 */
export function sessionLiveness(
  session: SessionRecord,
  signIn: SessionRecord,
  now: number,
  idleMs: number,
  userEnabled: boolean,
  entryEnabled: boolean,
): SessionLiveness {
  if (session.expiresAt <= now || signIn.expiresAt <= now || signIn.lastSeenAt + idleMs <= now)
    return 'sign_in_over';
  if (!userEnabled) return 'user_locked';
  if (!entryEnabled) return 'entry_sessions_ended';
  return 'live';
}
