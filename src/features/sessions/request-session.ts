import type { IncomingHttpHeaders } from 'node:http';
import { sessionServesHost } from '../../foundation/config/served-hosts.js';
import { readCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { RememberedSession } from '../../foundation/http/session-cache.js';
import type { SessionRecord } from '../../foundation/storage/types.js';
import type { ActiveSession } from './session-service.js';
import { resolveSession } from './session-service.js';

/** A request's valid session, with the id its cookie holds (for CSRF tokens). */
export interface RequestSession extends ActiveSession {
  readonly id: string;
}

/** A request as Fastify or the bare Node.js server hands it over. */
interface RequestWithHeaders {
  readonly headers: IncomingHttpHeaders;
}

interface SessionLookup {
  /**
   * Use the gateway's session cache (src/foundation/http/session-cache.ts): for the
   * checks of forward-auth and the reverse proxy, which run on every request
   * to a protected application, and the portal page. Everything else (sign-out,
   * the admin API, forms that change something) reads storage every time.
   */
  readonly remembered?: boolean;
  /**
   * The host the session must serve (sessionServes): the request's Host by
   * default; forward-auth names the proxied request's (X-Forwarded-Host).
   */
  readonly host?: string | undefined;
}

/** The session id a request's cookie holds, checked or not. */
export function sessionIdOf(gateway: Gateway, request: RequestWithHeaders): string | undefined {
  return readCookie(gateway, request, 'session');
}

/**
 * Whether `session` may be used by a request for `host`: a host's session
 * on the host it was handed to only, a sign-in's own on the auth host only,
 * or, made under SSOGATE_COOKIE_DOMAIN, on every host under that domain
 * (config/served-hosts.ts sessionServesHost). A host's session stored
 * without its host (made before hosts were recorded) serves none, and the
 * next visit hands the sign-in off again. The host is read with the
 * session, so this costs no storage call.
 */
export function sessionServes(
  gateway: Gateway,
  session: SessionRecord,
  host: string | undefined,
): boolean {
  // A sign-in's own session records a host only when bound to a cookie domain.
  const boundTo = session.signInHash === undefined ? session.host : (session.host ?? '');
  return sessionServesHost(gateway.config.hosts, boundTo, host);
}

/**
 * The one way a request's session is read: the session cookie, then
 * resolveSession (expiry, idle time, the user and the entry still enabled),
 * through the session cache when asked; a session bound to another host
 * counts as none (sessionServes).
 */
export async function sessionOf(
  gateway: Gateway,
  request: RequestWithHeaders,
  lookup: SessionLookup = {},
): Promise<RequestSession | undefined> {
  const id = sessionIdOf(gateway, request);
  if (id === undefined) return undefined;
  const active =
    lookup.remembered === true
      ? await rememberedOrResolved(gateway, id)
      : await resolveSession(gateway.sessions, id);
  if (active === undefined) return undefined;
  const host = 'host' in lookup ? lookup.host : request.headers.host;
  return sessionServes(gateway, active.session, host) ? { ...active, id } : undefined;
}

/**
 * The request's session if the cache holds it still valid, without a
 * storage call; synchronous, so the fast paths of forward-auth and the
 * reverse proxy can answer without a framework. Nothing is copied: the
 * answer is the remembered record itself.
 */
export function rememberedSessionOf(
  gateway: Gateway,
  request: RequestWithHeaders,
): RememberedSession | undefined {
  return gateway.sessionCache.remembered(sessionIdOf(gateway, request));
}

async function rememberedOrResolved(
  gateway: Gateway,
  id: string,
): Promise<ActiveSession | undefined> {
  const cache = gateway.sessionCache;
  if (!cache.enabled) {
    gateway.telemetry.sessionCacheLookup(false);
    return resolveSession(gateway.sessions, id);
  }
  const known = cache.remembered(id);
  gateway.telemetry.sessionCacheLookup(known !== undefined);
  if (known !== undefined) return known;
  const generationBefore = cache.currentGeneration();
  const active = await resolveSession(gateway.sessions, id);
  if (active !== undefined) cache.remember(id, active, generationBefore);
  return active;
}
