import type { FastifyReply } from 'fastify';
import type { Gateway } from './provider-gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendPage } from '../../foundation/http/respond.js';
import { formPostPage } from '../../foundation/pages/index.js';
import { securityHeaders } from '../../foundation/web/index.js';

/**
 * The answer to the application in the form_post response mode (OAuth 2.0
 * Form Post Response Mode §2): a page whose form posts the fields to the
 * redirect URI, never cached. Its Content-Security-Policy lets the form
 * post to that origin alone, and runs only the page's own script, by a
 * nonce fresh for each answer.
 */
export function sendFormPost(
  gateway: Gateway,
  reply: FastifyReply,
  redirectUri: string,
  fields: readonly (readonly [string, string])[],
): FastifyReply {
  const scriptNonce = Buffer.from(gateway.random(16)).toString('base64url');
  const policy = securityHeaders({
    https: gateway.config.secureCookies,
    formActionOrigins: [new URL(redirectUri).origin],
    scriptNonce,
  })['Content-Security-Policy'];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
  void reply.header('cache-control', 'no-store');
  return sendPage(
    reply,
    200,
    formPostPage({
      action: redirectUri,
      fields,
      scriptNonce,
      page: pageContext(gateway, reply.request),
    }),
  );
}
