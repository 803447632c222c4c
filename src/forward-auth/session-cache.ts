import { readCookie } from '../http/browser-cookies.js';
import type { Gateway } from '../http/gateway.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { resolveSession, touchIntervalMs } from '../sessions/session-service.js';
import type { FastifyRequest } from 'fastify';

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
  if (gateway.storage.changeStamp === undefined || sessionId === undefined)
    return resolveSession(gateway.sessions, sessionId);
  const known = rememberedSession(gateway, sessionId);
  if (known !== undefined) return known;
  const cache = cacheOf(gateway);
  const stamp = cache.stamp;
  const active = await resolveSession(gateway.sessions, sessionId);
  // Remembered under the stamp read before the lookup: a write while it ran
  // (its own touch included) makes the next check look again.
  if (active !== undefined && cache.stamp === stamp && stamp !== undefined) {
    if (cache.entries.size >= maxEntries) cache.entries.clear();
    cache.entries.set(sessionId, active);
  }
  return active;
}

/**
 * The remembered session of this id, if there is one still valid now; reads
 * the change stamp first, forgetting everything when it moved. Synchronous,
 * so the forward-auth fast path can answer without a framework.
 */
export function rememberedSession(
  gateway: Gateway,
  sessionId: string | undefined,
): ActiveSession | undefined {
  const changeStamp = gateway.storage.changeStamp;
  if (changeStamp === undefined || sessionId === undefined) return undefined;
  const cache = cacheOf(gateway);
  const stamp = changeStamp();
  if (stamp !== cache.stamp) {
    cache.entries.clear();
    cache.stamp = stamp;
    return undefined;
  }
  const known = cache.entries.get(sessionId);
  if (known === undefined) return undefined;
  const now = gateway.clock();
  const { session } = known;
  const { idleMs } = gateway.sessions;
  // A check due to record activity takes the full path, which writes it.
  if (
    session.expiresAt > now &&
    session.lastSeenAt + idleMs > now &&
    now - session.lastSeenAt < touchIntervalMs(idleMs)
  )
    return known;
  cache.entries.delete(sessionId);
  return undefined;
}

function cacheOf(gateway: Gateway): Cache {
  let cache = caches.get(gateway);
  if (cache === undefined) {
    cache = { stamp: undefined, entries: new Map() };
    caches.set(gateway, cache);
  }
  return cache;
}
