import type { FastifyReply, FastifyRequest } from 'fastify';
import { normaliseHost } from '../../foundation/config/proxy-settings.js';
import { applicationHost } from '../../foundation/config/served-hosts.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { ensureHandoffNonce, handoffNonceHash } from '../../foundation/http/handoff-cookie.js';
import { SsogateError } from '../../core/index.js';
import { authHostSignInUrl, returnHop } from './auth-host-sign-in.js';
import { refuseHandoff } from './handoff-audit.js';
import { safeReturnTo } from '../../foundation/web/index.js';

/** The auth host's step of a handoff (handoff.ts). */
export const handoffPath = '/_sso/handoff';
/** Where a proxy that picks its own sign-in URL (ingress-nginx auth-signin) starts one. */
export const handoffStartPath = '/_sso/handoff/start';

/** Whether a request arrived on an application host, where a sign-in is handed over rather than run. */
export function handsOffHere(gateway: Gateway, host: string | undefined): host is string {
  const { hosts } = gateway.config;
  return hosts.several && host !== undefined && applicationHost(hosts, host);
}

/**
 * Step 1: sends a browser without a session on `host` (an application host)
 * to the auth host, to come back to `returnTo` (a path on `host`). Under
 * SSOGATE_COOKIE_DOMAIN there is no handoff: the sign-in's own cookie is
 * the domain's, so the browser signs in at the auth host and goes back to
 * the page through the return hop, which checks the host is listed.
 */
export async function sendToHandoff(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  host: string,
  returnTo: string,
): Promise<FastifyReply> {
  if (gateway.config.hosts.cookieDomain !== undefined) {
    // The public URL's scheme: the cookie (Secure under https) is the same on every host.
    const scheme = new URL(gateway.config.publicUrl).protocol;
    const page = new URL(safeReturnTo(returnTo), `${scheme}//${normaliseHost(host)}`);
    return reply.redirect(await authHostSignInUrl(gateway, returnHop(page.href)), 302);
  }
  const nonce = ensureHandoffNonce(gateway, request, reply);
  const url = new URL(handoffPath, gateway.config.publicUrl);
  url.searchParams.set('host', normaliseHost(host));
  url.searchParams.set('return_to', safeReturnTo(returnTo));
  url.searchParams.set('browser', handoffNonceHash(nonce));
  return reply.redirect(url.href, 302);
}

/**
 * GET /_sso/handoff/start?rd=URL on an application host: step 1 for a proxy
 * that sends the browser to a sign-in URL of its own on 401 (ingress-nginx's
 * `auth-signin`, which adds `rd`). `URL` must be on this very host; any
 * other is refused, so the gateway never hands a browser on elsewhere.
 */
export async function startHandoffFromProxy(
  gateway: Gateway,
  request: FastifyRequest<{ Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { rd } = request.query;
  const { host } = request.headers;
  let target: URL | undefined;
  try {
    target = typeof rd === 'string' && rd.length <= 4096 ? new URL(rd) : undefined;
  } catch {
    target = undefined;
  }
  if (
    !handsOffHere(gateway, host) ||
    target === undefined ||
    !/^https?:$/.test(target.protocol) ||
    target.username !== '' ||
    normaliseHost(target.host) !== normaliseHost(host)
  ) {
    const error = new SsogateError(
      'handoff_host_not_listed',
      'a handoff start for another or unlisted host',
    );
    return refuseHandoff(gateway, request, reply, 'start', error, host);
  }
  return sendToHandoff(gateway, request, reply, host, target.pathname + target.search);
}
