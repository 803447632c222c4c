import type { FastifyReply, FastifyRequest } from 'fastify';
import { normaliseHost } from '../config/proxy-settings.js';
import { applicationHost } from '../config/served-hosts.js';
import type { Gateway } from '../http/gateway.js';
import { ensureHandoffNonce, handoffNonceHash } from '../http/handoff-cookie.js';
import { safeReturnTo } from '../web/index.js';

/** The auth host's step of a handoff (handoff.ts). */
export const handoffPath = '/_sso/handoff';

/** Whether a request arrived on an application host, where a sign-in is handed over rather than run. */
export function handsOffHere(gateway: Gateway, host: string | undefined): host is string {
  const { hosts } = gateway.config;
  return hosts.several && host !== undefined && applicationHost(hosts, host);
}

/**
 * Step 1: sends a browser without a session on `host` (an application host)
 * to the auth host, to come back to `returnTo` (a path on `host`).
 */
export function sendToHandoff(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  host: string,
  returnTo: string,
): FastifyReply {
  const nonce = ensureHandoffNonce(gateway, request, reply);
  const url = new URL(handoffPath, gateway.config.publicUrl);
  url.searchParams.set('host', normaliseHost(host));
  url.searchParams.set('return_to', safeReturnTo(returnTo));
  url.searchParams.set('browser', handoffNonceHash(nonce));
  return reply.redirect(url.href, 302);
}
