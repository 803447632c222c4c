import type { FastifyReply } from 'fastify';
import type { Gateway } from '../../foundation/http/gateway.js';
import { securityHeaders } from '../../foundation/web/index.js';

/**
 * The origins a form post of the auth host may end at. Browsers apply CSP
 * form-action to the redirects that follow a form post
 * (src/foundation/web/security-headers.ts), and a sign-in begun on an
 * application host ends there: the post's 303 goes to the handoff, which
 * sends the browser on to that host (handoff.ts), or under a cookie domain
 * to the return hop, which does the same. So such a form (the directory's
 * password form, the relayed callback post of form_post and SAML) may end
 * at every listed host, in the public URL's scheme as the handoff uses; a
 * `*.domain` host is a CSP wildcard host source of its own.
 */
function applicationOrigins(gateway: Gateway): string[] {
  const { hosts, publicUrl } = gateway.config;
  if (!hosts.several) return [];
  const { protocol } = new URL(publicUrl);
  return hosts.others.flatMap((host) => {
    const url = URL.canParse(`${protocol}//${host}`) ? new URL(`${protocol}//${host}`) : undefined;
    return url === undefined ? [] : [url.origin];
  });
}

/**
 * The origins a sign-in form of the auth host may end at: every application
 * host, and every redirect URI registered with the gateway's OpenID Provider,
 * where a sign-in that continues an authorization request ends
 * (openid-provider/redirect-origins.ts).
 */
export async function signInFormOrigins(gateway: Gateway): Promise<string[]> {
  const clients = (await gateway.clientRedirectOrigins?.()) ?? [];
  return [...new Set([...applicationOrigins(gateway), ...clients])];
}

/**
 * The Content-Security-Policy of a form of the auth host whose post
 * continues to the page first asked for: the directory's password form,
 * the local accounts' form, a second factor's. With `form-action 'self'`
 * only, Chromium stops at the post's first redirect to another host and
 * shows nothing; so the form may end where signInFormOrigins allows.
 */
export async function allowSignInFormRedirects(
  gateway: Gateway,
  reply: FastifyReply,
): Promise<void> {
  const policy = securityHeaders({
    https: gateway.config.secureCookies,
    formActionOrigins: await signInFormOrigins(gateway),
  })['Content-Security-Policy'];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
}
