import type { FastifyReply } from 'fastify';
import { signedOutPage } from '../pages/index.js';
import type { SignOutScope } from '../pages/index.js';
import { securityHeaders } from '../web/index.js';
import type { Gateway } from './gateway.js';
import { pageContext } from './page-context.js';
import { sendPage } from './respond.js';

/**
 * The signed-out page with the frames a sign-out loads in hidden frames
 * (OpenID Connect Front-Channel Logout 1.0 §2; the OpenID Provider adds
 * them to the sign-in's end, foundation/storage/sign-in-ends.ts), its CSP frame-src naming their
 * origins alone; with `continueTo`, the page goes on there after they load.
 */
export function sendSignedOutWithFrames(
  gateway: Gateway,
  reply: FastifyReply,
  input: { scope: SignOutScope; frames: readonly string[]; continueTo?: string },
): FastifyReply {
  const policy = securityHeaders({
    https: gateway.config.secureCookies,
    frameOrigins: input.frames.map((uri) => new URL(uri).origin),
  })['Content-Security-Policy'];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
  return sendPage(
    reply,
    200,
    signedOutPage({
      scope: input.scope,
      page: pageContext(gateway, reply.request),
      logoutFrames: input.frames,
      ...(input.continueTo === undefined ? {} : { continueTo: input.continueTo }),
    }),
  );
}
