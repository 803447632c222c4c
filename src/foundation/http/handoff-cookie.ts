import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRandomToken, randomToken } from '../../core/index.js';
import { sha256Base64url } from '../crypto/hash.js';
import {
  HANDOFF_COOKIE,
  SECURE_HANDOFF_COOKIE,
  clearCookie,
  parseCookieHeader,
  serializeCookie,
} from '../web/index.js';
import { appendCookie } from './browser-cookies.js';
import type { Gateway } from './gateway.js';

/**
 * The handoff cookie (sign-in/handoff.ts): a random nonce set on the host a
 * sign-in is handed to, before the browser goes to the auth host. Only its
 * hash travels; the code that comes back is good only with the cookie, so a
 * code carried to another browser is refused. Host-only, HttpOnly,
 * SameSite=Lax (the code comes back on a top-level redirect), `__Host-`
 * under https; it lasts as long as a pending sign-in, as a sign-in may run
 * in between.
 */
function handoffCookieName(gateway: Gateway): string {
  return gateway.config.secureCookies ? SECURE_HANDOFF_COOKIE : HANDOFF_COOKIE;
}

export function readHandoffNonce(gateway: Gateway, request: FastifyRequest): string | undefined {
  const value = parseCookieHeader(request.headers.cookie).get(handoffCookieName(gateway));
  return value !== undefined && isRandomToken(value) ? value : undefined;
}

/**
 * The browser's handoff nonce, set now when it has none: a second handoff
 * under way in another tab keeps the same nonce, so neither is refused.
 */
export function ensureHandoffNonce(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): string {
  const existing = readHandoffNonce(gateway, request);
  if (existing !== undefined) return existing;
  const value = randomToken(gateway.random);
  const secure = gateway.config.secureCookies;
  appendCookie(
    reply,
    serializeCookie(handoffCookieName(gateway), value, {
      httpOnly: true,
      secure,
      sameSite: 'Lax',
      maxAgeSeconds: Math.floor(gateway.config.pendingSignInMs / 1000),
    }),
  );
  return value;
}

export function clearHandoffNonce(gateway: Gateway, reply: FastifyReply): void {
  const secure = gateway.config.secureCookies;
  appendCookie(reply, clearCookie(handoffCookieName(gateway), { secure, sameSite: 'Lax' }));
}

/** What the handoff carries to the auth host in place of the nonce. */
export function handoffNonceHash(nonce: string): string {
  return sha256Base64url(`handoff-browser:${nonce}`);
}
