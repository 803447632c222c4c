import type { FastifyReply, FastifyRequest } from 'fastify';
import { normaliseHost } from '../../foundation/config/proxy-settings.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { returnHop } from '../sign-in/auth-host-sign-in.js';

/**
 * The page that asks for a second factor (or enrols one on first need), on
 * the auth host: the checks of forward-auth and the reverse proxy send a
 * page load there when an access rule asks for a factor the session lacks
 * (access-rules/access-rules.ts accessVerdict), coming back to `return_to`.
 */
export const secondFactorPath = '/_sso/factor';

/** A passkey's assertion is posted here; its enrolment to passkeyEnrolPath. */
export const passkeyPath = '/_sso/factor/passkey';
export const passkeyEnrolPath = '/_sso/factor/passkey/enrol';

/** The user's own page of factors: listed, added, removed. */
export const factorsPath = '/_sso/factors';

/** Enrolment of an authenticator, first or another. */
export const enrolPath = `${secondFactorPath}/enrol`;

/**
 * Where a factor page comes back to: a page asked for, as safeReturnTo
 * allows, or one of the factor pages' own: the user's list of factors,
 * whose links ("add an authenticator", and the code asked before removing
 * the last one) come back to it, and the enrolment of another
 * authenticator, which a fresh sign-in and then a code may come before
 * (startEnrolment). safeReturnTo refuses every reserved /_sso/ path, which
 * would leave the user on the auth host's home page instead. The enrolment's
 * own return_to is checked the same way, one level deep, and written anew.
 */
export function factorReturnTo(raw: unknown): string {
  if (raw === factorsPath) return factorsPath;
  if (typeof raw === 'string' && raw.startsWith(`${enrolPath}?`)) {
    const inner = new URLSearchParams(raw.slice(enrolPath.length + 1)).get('return_to');
    const back = inner === factorsPath ? factorsPath : safeReturnTo(inner);
    return enrolHref(back);
  }
  return safeReturnTo(raw);
}

export function enrolHref(returnTo: string): string {
  return `${enrolPath}?return_to=${encodeURIComponent(returnTo)}`;
}

export function passkeyEnrolHref(returnTo: string): string {
  return `${passkeyEnrolPath}?return_to=${encodeURIComponent(returnTo)}`;
}

export function factorHref(returnTo: string): string {
  return returnTo === '/'
    ? secondFactorPath
    : `${secondFactorPath}?return_to=${encodeURIComponent(returnTo)}`;
}

/** The factor page's absolute URL on the auth host, coming back to `returnTo` (a path of the auth host). */
export function secondFactorUrl(gateway: Gateway, returnTo: string): string {
  const query = returnTo === '/' ? '' : `?return_to=${encodeURIComponent(returnTo)}`;
  return `${gateway.config.publicUrl}${secondFactorPath}${query}`;
}

/**
 * Sends a page load of the reverse proxy whose access rule asks for a
 * second factor to the auth host's factor page, coming back to the page
 * asked for: straight on the auth host, through the return hop on another
 * listed host (whose host's session the factor reaches as well:
 * SessionStore.recordFactor).
 */
export async function sendSecondFactorNeeded(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const returnTo = safeReturnTo(request.url);
  const { host } = request.headers;
  const publicUrl = new URL(gateway.config.publicUrl);
  const here =
    host === undefined || normaliseHost(host) === normaliseHost(publicUrl.host)
      ? returnTo
      : returnHop(`${publicUrl.protocol}//${host}${returnTo}`);
  return reply.redirect(secondFactorUrl(gateway, here), 302);
}
