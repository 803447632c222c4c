import { isRandomToken, randomToken } from '../../core/index.js';
import { domainBinding } from '../../foundation/config/served-hosts.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { SessionDeps } from '../../foundation/http/gateway.js';
import { sessionLiveness } from '../../foundation/http/session-liveness.js';
import type { SignInEndReason } from '../../foundation/storage/sign-in-ends.js';
import type { SessionRecord, UserRecord } from '../../foundation/storage/types.js';

export interface ActiveSession {
  readonly session: SessionRecord;
  readonly user: UserRecord;
}

/**
 * How often a session's activity is written: at most once a minute rather
 * than at every request, and at most every quarter of the idle time, so that
 * the last-seen time lags a request by a quarter of the idle window at most
 * and a short idle time still slides with activity. The gateway's session
 * cache (src/foundation/http/session-cache.ts) remembers a check only as long.
 */
export function touchIntervalMs(idleMs: number): number {
  return Math.min(60_000, Math.floor(idleMs / 4));
}

/**
 * Sessions are opaque random ids (256 bits) held only by the browser's
 * cookie; the store keeps their SHA-256, so a copy of the database cannot be
 * replayed as cookies. A sign-in always makes a new id and ends the previous
 * one (no fixation: a planted id never becomes valid).
 */
export async function createSession(
  deps: SessionDeps,
  user: UserRecord,
  entryId: string | null,
  previousId: string | undefined,
): Promise<string> {
  return (await startSession(deps, user, entryId, previousId)).id;
}

/** A session just made: its id and what a check of it would find. */
interface StartedSession {
  readonly id: string;
  readonly active: ActiveSession;
}

interface StartOptions {
  /**
   * The caller has already written the user's last sign-in in the same
   * transaction (provision-user.ts reads the row and writes it in one
   * statement), so it is not written twice.
   */
  readonly signInRecorded?: boolean;
  /**
   * Writes what the session keeps beside it (keep-provider-session.ts),
   * given the record about to be created. It runs before any session is
   * ended or made, so that in the caller's transaction a failure of it
   * writes no session (with sessions in Redis, theirs are written only once
   * the transaction has committed: src/app/open-storage.ts).
   */
  readonly beside?: (session: SessionRecord) => Promise<void>;
}

/**
 * createSession, also giving the records as they were written (for the
 * session cache).
 */
export async function startSession(
  deps: SessionDeps,
  user: UserRecord,
  entryId: string | null,
  previousId: string | undefined,
  { signInRecorded = false, beside }: StartOptions = {},
): Promise<StartedSession> {
  const id = randomToken(deps.random);
  const now = deps.clock();
  const session: SessionRecord = {
    idHash: sessionHash(id),
    userRowId: user.id,
    entryId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + deps.lifetimeMs,
    // Its cookie is the domain's: it serves every host under it, and no other.
    ...(deps.cookieDomain === undefined ? {} : { host: domainBinding(deps.cookieDomain) }),
  };
  await beside?.(session);
  if (previousId !== undefined) {
    const replaced = sessionHash(previousId);
    await deps.sessions.delete(replaced);
    await deps.signInEnded({ ended: { signInHash: replaced }, reason: 'sign_in_replaced' });
  }
  await deps.sessions.create(session);
  if (signInRecorded) return { id, active: { session, user } };
  await deps.users.recordSignIn(user.id, now);
  return { id, active: { session, user: { ...user, lastSignInAt: now } } };
}

interface SessionCheck {
  /**
   * Whether the check is the user's activity, which slides the idle limit
   * (the default). The checks of open WebSockets are not: an open socket
   * does not keep its session alive (src/foundation/http/upgraded-connections.ts).
   */
  readonly activity?: boolean;
}

/**
 * The session a cookie names, if it is still valid: not past its absolute
 * end, not idle too long, its user still enabled, and the entry it was
 * signed in with still there and enabled (local sign-ins have none). A
 * session that fails any of these is deleted, so it is refused everywhere
 * from then on.
 *
 * The entry is read from the registry, which every instance drops at an
 * entry's change notice: a session of an entry disabled or deleted
 * elsewhere, or by an import, ends here too, even one made by a sign-in
 * that finished while the entry was being disabled.
 */
export async function resolveSession(
  deps: SessionDeps,
  id: string | undefined,
  check: SessionCheck = {},
): Promise<ActiveSession | undefined> {
  if (id === undefined || !isRandomToken(id)) return undefined;
  const idHash = sessionHash(id);
  const session = await deps.sessions.get(idHash);
  if (session === undefined) return undefined;
  // A host's session (a handoff's) lives by its sign-in: that session's
  // limits, re-validation and activity are the ones that count, and when it
  // is gone, so is this one, on every host at once.
  const signIn =
    session.signInHash === undefined ? session : await deps.sessions.get(session.signInHash);
  if (signIn === undefined) {
    await deps.sessions.delete(idHash);
    return undefined;
  }
  const now = deps.clock();
  const user = await deps.users.get(session.userRowId);
  const liveness = sessionLiveness(
    session,
    signIn,
    now,
    deps.idleMs,
    user?.enabled === true,
    await entryStillOpen(deps, session.entryId),
  );
  // No user reads as a user locked (not enabled): `live` implies one.
  if (liveness !== 'live' || user === undefined) {
    await endSignIn(deps, session, liveness === 'live' ? 'user_locked' : liveness);
    return undefined;
  }
  if (deps.revalidate !== undefined && !(await deps.revalidate(signIn))) {
    await endSignIn(deps, session, 'revalidation_failed');
    return undefined;
  }
  if (check.activity !== false) await recordActivity(deps, session, signIn, now);
  return { session, user };
}

/**
 * Writes the activity, within the touch throttle: of this session, and of
 * its sign-in's, so that use on any host keeps the sign-in from idling out.
 */
async function recordActivity(
  deps: SessionDeps,
  session: SessionRecord,
  signIn: SessionRecord,
  now: number,
): Promise<void> {
  const interval = touchIntervalMs(deps.idleMs);
  if (now - session.lastSeenAt >= interval) await deps.sessions.touch(session.idHash, now);
  if (signIn !== session && now - signIn.lastSeenAt >= interval)
    await deps.sessions.touch(signIn.idHash, now);
}

/**
 * Ends a session and, for a host's session, its sign-in's too: one sign-in
 * ends everywhere at once, and its end is raised once, for the sign-in
 * (foundation/storage/sign-in-ends.ts). The sign-in's end reaches its other
 * hosts' sessions through their check (resolveSession) and the revocation
 * of its hash (http/session-cache.ts).
 */
async function endSignIn(
  deps: SessionDeps,
  session: SessionRecord,
  reason: SignInEndReason,
  frames?: string[],
): Promise<void> {
  await deps.sessions.delete(session.idHash);
  if (session.signInHash !== undefined) await deps.sessions.delete(session.signInHash);
  await deps.signInEnded({
    ended: { signInHash: session.signInHash ?? session.idHash },
    reason,
    ...(frames === undefined ? {} : { frames }),
  });
}

/**
 * A session for another host, handed on from a sign-in's session
 * (sign-in/handoff.ts): a new random id, the same user and entry, and the
 * sign-in's absolute end; it names the sign-in, and ends with it, and is
 * bound to `host` (normalised), the only host it serves.
 */
export async function startHostSession(
  deps: SessionDeps,
  signIn: SessionRecord,
  host: string,
): Promise<string> {
  const id = randomToken(deps.random);
  const now = deps.clock();
  await deps.sessions.create({
    idHash: sessionHash(id),
    userRowId: signIn.userRowId,
    entryId: signIn.entryId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: signIn.expiresAt,
    signInHash: signIn.signInHash ?? signIn.idHash,
    host,
    // The second factor travels with the handoff, no further: a host's
    // session holds what its sign-in held when it was made
    // (docs/security.md#second-factor), and is updated with it.
    ...(signIn.factor === undefined ? {} : { factor: signIn.factor }),
  });
  return id;
}

async function entryStillOpen(deps: SessionDeps, entryId: string | null): Promise<boolean> {
  if (entryId === null) return true;
  return (await deps.entries.get(entryId))?.enabled === true;
}

/**
 * The user's sign-out of the session a cookie names (here, everywhere, or
 * at the OpenID Provider's end-session endpoint): it ends with its sign-in,
 * raised as `user_signed_out`. `frames` collects the front-channel logout
 * pages the browser is to load (foundation/storage/sign-in-ends.ts).
 * Resolves what ended, if the session was still valid (one found over is
 * ended as such by its check).
 */
export async function endSession(
  deps: SessionDeps,
  id: string | undefined,
  frames?: string[],
): Promise<ActiveSession | undefined> {
  const active = await resolveSession(deps, id);
  if (active !== undefined) await endSignIn(deps, active.session, 'user_signed_out', frames);
  else if (id !== undefined) await deps.sessions.delete(sessionHash(id));
  return active;
}

export function sessionHash(id: string): string {
  return sha256Base64url(`session:${id}`);
}

/**
 * The CSRF token of a session's forms and API calls: derived from the secret
 * session id, so a page of another origin cannot know it, and nothing more
 * needs storing.
 */
export function csrfTokenFor(sessionId: string): string {
  return sha256Base64url(`csrf:${sessionId}`);
}
