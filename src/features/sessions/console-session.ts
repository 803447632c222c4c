import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import {
  clearConsoleCookie,
  readCookie,
  setConsoleCookie,
} from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { SessionRecord } from '../../foundation/storage/types.js';
import { sessionOf, sessionServes } from './request-session.js';
import type { RequestSession } from './request-session.js';
import { resolveSession, startHostSession } from './session-service.js';

/**
 * The console's and the admin API's session: always one held in a host-only
 * cookie of the auth host. Without a cookie domain that is the session
 * cookie itself. Under SSOGATE_COOKIE_DOMAIN the session cookie is the
 * domain's, and every host under the domain receives it (an application
 * behind forward-auth sees it in its Cookie header): replayed at the auth
 * host it must not act as an administrator. So a sign-in there also makes a
 * session of its own for the auth host (a host's session of the same
 * sign-in, sessions/session-service.ts startHostSession) in the console
 * cookie, which the console and the admin API read instead, and which ends
 * with the sign-in.
 */
export async function consoleSessionOf(
  gateway: Gateway,
  request: { readonly headers: IncomingHttpHeaders },
): Promise<RequestSession | undefined> {
  if (gateway.config.hosts.cookieDomain === undefined) return sessionOf(gateway, request);
  const id = consoleSessionIdOf(gateway, request);
  const active = await resolveSession(gateway.sessions, id);
  if (id === undefined || active === undefined) return undefined;
  // The domain's session in this cookie is none: only the auth host's own.
  const { host } = active.session;
  if (host === undefined || host.startsWith('.')) return undefined;
  return sessionServes(gateway, active.session, request.headers.host)
    ? { ...active, id }
    : undefined;
}

/** The console cookie's session id under a cookie domain; undefined without one. */
export function consoleSessionIdOf(
  gateway: Gateway,
  request: { readonly headers: IncomingHttpHeaders },
): string | undefined {
  return gateway.config.hosts.cookieDomain === undefined
    ? undefined
    : readCookie(gateway, request, 'console');
}

/**
 * At a sign-in on the auth host under a cookie domain: the console's own
 * session of that sign-in, in the auth host's console cookie. Made for
 * every user, so the console can tell one who is no administrator so
 * rather than send them to sign in again.
 */
export async function startConsoleSession(
  gateway: Gateway,
  reply: FastifyReply,
  signIn: SessionRecord,
): Promise<void> {
  const { hosts } = gateway.config;
  if (hosts.cookieDomain === undefined) return;
  setConsoleCookie(gateway, reply, await startHostSession(gateway.sessions, signIn, hosts.auth));
}

/** At a sign-out: the console cookie cleared too, under a cookie domain. */
export function clearConsoleSession(gateway: Gateway, reply: FastifyReply): void {
  if (gateway.config.hosts.cookieDomain !== undefined) clearConsoleCookie(gateway, reply);
}
