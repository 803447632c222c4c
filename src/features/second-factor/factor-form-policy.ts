import type { FastifyReply } from 'fastify';
import { securityHeaders } from '../../foundation/web/index.js';
import { signInFormOrigins } from '../sign-in/application-origins.js';
import type { Gateway } from './factor-gateway.js';

/**
 * The Content-Security-Policy of a factor page whose form continues to the
 * page first asked for. Browsers apply CSP form-action to the redirects
 * that follow a form post (src/foundation/web/security-headers.ts), and a
 * factor asked on an application host is given on the auth host: the post's
 * 303 goes back to that host (through the handoff). With `form-action
 * 'self'` only, Chromium stops there and shows nothing; so the form may end
 * at the hosts a sign-in form may end at (sign-in/application-origins.ts).
 */
export async function allowFactorFormRedirects(
  gateway: Gateway,
  reply: FastifyReply,
): Promise<void> {
  const policy = securityHeaders({
    https: gateway.config.secureCookies,
    formActionOrigins: await signInFormOrigins(gateway),
  })['Content-Security-Policy'];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
}
