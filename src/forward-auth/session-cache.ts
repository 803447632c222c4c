import { readCookie } from '../app/browser-cookies.js';
import type { Gateway } from '../app/gateway.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { resolveSession } from '../sessions/session-service.js';
import type { FastifyRequest } from 'fastify';

/** Activity is recorded once a minute (session-service.ts); a check due for it takes the full path. */
const touchEveryMs = 60_000;
const maxEntries = 10_000;

interface Cache {
  stamp: string | undefined;
  readonly entries: Map<string, ActiveSession>;
}

const caches = new WeakMap<Gateway, Cache>();

/**
 * The session of a request, as resolveSession gives it, remembered between
 * the checks of forward-auth and the reverse proxy, which run on every
 * request to a protected application.
 *
 * A remembered session is used only while the storage's change stamp is the
 * one read before it was looked up: any write to sessions or users (a
 * sign-out, a user disabled, by this process or another on the same SQLite
 * file) changes the stamp and forgets every session at once, so sign-out and
 * disabling stay instant. Expiry and idle time are checked on every use.
 * Storage without a stamp (sessions in Redis, shared by instances) is asked
 * every time.
 */
export async function cachedSession(
  gateway: Gateway,
  request: FastifyRequest,
): Promise<ActiveSession | undefined> {
  return sessionFor(gateway, readCookie(gateway, request, 'session'));
}

export async function sessionFor(
  gateway: Gateway,
  sessionId: string | undefined,
): Promise<ActiveSession | undefined> {
  const changeStamp = gateway.storage.changeStamp;
  if (changeStamp === undefined || sessionId === undefined)
    return resolveSession(gateway.sessions, sessionId);
  let cache = caches.get(gateway);
  if (cache === undefined) {
    cache = { stamp: undefined, entries: new Map() };
    caches.set(gateway, cache);
  }
  const stamp = changeStamp();
  if (stamp !== cache.stamp) {
    cache.entries.clear();
    cache.stamp = stamp;
  }
  const known = cache.entries.get(sessionId);
  const now = gateway.clock();
  if (known !== undefined) {
    const { session } = known;
    if (
      session.expiresAt > now &&
      session.lastSeenAt + gateway.sessions.idleMs > now &&
      now - session.lastSeenAt < touchEveryMs
    )
      return known;
    cache.entries.delete(sessionId);
  }
  const active = await resolveSession(gateway.sessions, sessionId);
  // Remembered under the stamp read before the lookup: a write while it ran
  // (its own touch included) makes the next check look again.
  if (active !== undefined && cache.stamp === stamp) {
    if (cache.entries.size >= maxEntries) cache.entries.clear();
    cache.entries.set(sessionId, active);
  }
  return active;
}
