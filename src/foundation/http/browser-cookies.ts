import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRandomToken, randomToken } from '../../core/index.js';
import { sha256Base64url } from '../crypto/hash.js';
import { clearCookie, cookieNames, parseCookieHeader, serializeCookie } from '../web/index.js';
import { LANGUAGE_COOKIE } from '../pages/index.js';
import type { Gateway } from './gateway.js';

/**
 * The gateway's cookies. All are HttpOnly and SameSite=Lax (a Strict
 * cookie would not come back on the top-level redirect from the third-party
 * server); with an https public URL they are Secure and __Host- prefixed.
 * - session: the signed-in browser's opaque session id;
 * - binding: a random value that ties pending sign-ins, and the local sign-in
 *   form, to this browser (docs/design.md#single-use-and-browser-binding);
 * - console: under SSOGATE_COOKIE_DOMAIN, the auth host's own session for the
 *   console and the admin API (features/sessions/console-session.ts).
 */
export function readCookie(
  gateway: Gateway,
  request: { readonly headers: IncomingHttpHeaders },
  which: 'session' | 'binding' | 'console',
): string | undefined {
  return parsedCookies(gateway, request.headers.cookie).get(namesOf(gateway)[which]);
}

/**
 * The cookie the admin API reads an administrator's session from (its
 * OpenAPI document names it): the session cookie, or under a cookie domain
 * the auth host's console cookie (features/sessions/console-session.ts).
 */
export function adminApiCookieName(gateway: Gateway): string {
  const names = namesOf(gateway);
  return gateway.config.hosts.cookieDomain === undefined ? names.session : names.console;
}

/** This gateway's cookie names: its scheme's, and the session's a domain's when it has one. */
function namesOf(gateway: Gateway): ReturnType<typeof cookieNames> {
  const { secureCookies, hosts } = gateway.config;
  return cookieNames(secureCookies, hosts.cookieDomain !== undefined);
}

/**
 * The session cookie's Domain attribute: SSOGATE_COOKIE_DOMAIN, so every
 * host under it receives the cookie (docs/proxy.md#one-cookie-for-a-whole-domain);
 * none otherwise, the cookie staying on its host.
 */
function sessionDomain(gateway: Gateway): { readonly domain?: string } {
  const domain = gateway.config.hosts.cookieDomain;
  return domain === undefined ? {} : { domain };
}

/** Headers longer than this are parsed every time rather than remembered. */
const maxRememberedHeaderLength = 1024;
/** How many distinct Cookie headers are remembered; all are forgotten when full. */
const maxRememberedHeaders = 1000;

/**
 * The Cookie header's pairs, parsed once per distinct header text: a proxy
 * in front of an application sends the same browser's header to
 * forward-auth on every request it checks, and parsing (a split and two
 * patterns per pair) was the largest share of a check answered from memory.
 * The parse depends on the text alone, so the memory changes no answer. The
 * headers hold session ids: the memory is the gateway's (gateway-memory.ts).
 */
function parsedCookies(gateway: Gateway, header: string | undefined): ReadonlyMap<string, string> {
  if (header === undefined || header.length > maxRememberedHeaderLength)
    return parseCookieHeader(header);
  const parsedHeaders = gateway.memory.cookieHeaders;
  const known = parsedHeaders.get(header);
  if (known !== undefined) return known;
  const parsed = parseCookieHeader(header);
  if (parsedHeaders.size >= maxRememberedHeaders) parsedHeaders.clear();
  parsedHeaders.set(header, parsed);
  return parsed;
}

export function setSessionCookie(gateway: Gateway, reply: FastifyReply, sessionId: string): void {
  setSessionCookieNamed(gateway, reply, 'session', sessionId);
}

export function clearSessionCookie(gateway: Gateway, reply: FastifyReply): void {
  clearSessionCookieNamed(gateway, reply, 'session');
}

/**
 * The console's session cookie under SSOGATE_COOKIE_DOMAIN
 * (features/sessions/console-session.ts): the auth host's alone, never
 * the domain's.
 */
export function setConsoleCookie(gateway: Gateway, reply: FastifyReply, sessionId: string): void {
  setSessionCookieNamed(gateway, reply, 'console', sessionId);
}

export function clearConsoleCookie(gateway: Gateway, reply: FastifyReply): void {
  clearSessionCookieNamed(gateway, reply, 'console');
}

function setSessionCookieNamed(
  gateway: Gateway,
  reply: FastifyReply,
  which: 'session' | 'console',
  sessionId: string,
): void {
  const { secureCookies, sessionLifetimeMs } = gateway.config;
  appendCookie(
    reply,
    serializeCookie(namesOf(gateway)[which], sessionId, {
      httpOnly: true,
      secure: secureCookies,
      sameSite: 'Lax',
      maxAgeSeconds: Math.floor(sessionLifetimeMs / 1000),
      ...(which === 'session' ? sessionDomain(gateway) : {}),
    }),
  );
}

function clearSessionCookieNamed(
  gateway: Gateway,
  reply: FastifyReply,
  which: 'session' | 'console',
): void {
  const secure = gateway.config.secureCookies;
  const domain = which === 'session' ? sessionDomain(gateway) : {};
  appendCookie(reply, clearCookie(namesOf(gateway)[which], { secure, sameSite: 'Lax', ...domain }));
}

/** The browser's binding value, set now if the browser has none (or a malformed one). */
export function ensureBinding(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): string {
  const existing = readCookie(gateway, request, 'binding');
  if (existing !== undefined && isRandomToken(existing)) return existing;
  const value = randomToken(gateway.random);
  const secure = gateway.config.secureCookies;
  appendCookie(
    reply,
    serializeCookie(cookieNames(secure).binding, value, {
      httpOnly: true,
      secure,
      sameSite: 'Lax',
      maxAgeSeconds: Math.floor(gateway.config.pendingSignInMs / 1000) * 6,
    }),
  );
  return value;
}

/** The CSRF token of the local sign-in form, derived from the binding value. */
export function loginFormToken(bindingValue: string): string {
  return sha256Base64url(`login-form:${bindingValue}`);
}

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The language the user chose with a page's switch. Not HttpOnly: the
 * console's script reads and writes it too, and it holds nothing secret.
 */
export function setLanguageCookie(gateway: Gateway, reply: FastifyReply, language: string): void {
  appendCookie(
    reply,
    serializeCookie(LANGUAGE_COOKIE, language, {
      httpOnly: false,
      secure: gateway.config.secureCookies,
      sameSite: 'Lax',
      maxAgeSeconds: YEAR_SECONDS,
    }),
  );
}

export function appendCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list =
    existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  void reply.header('set-cookie', [...list, cookie]);
}
