import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { markRoutine } from '../../foundation/logging/request-log.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { portalPage } from '../../foundation/pages/index.js';
import { sessionOf } from '../sessions/request-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { allowSignOutRedirect, shownUser } from '../sessions/sign-out-form.js';
import { sendSignInNeeded } from '../sign-in/send-to-sign-in.js';

/** An internal resource without an upstream: the portal page, or sign-in first. */
export async function internalResource(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  // Through the session cache, like forward-auth: a revocation (a sign-out
  // here or on another instance, a user or entry changed) forgets the
  // session before the next page (src/foundation/http/session-cache.ts).
  const active = await sessionOf(gateway, request, { remembered: true });
  if (active !== undefined) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendFailure(
        gateway,
        request,
        reply,
        new SsogateError('not_found', 'the portal has no such resource'),
      );
      return reply;
    }
    const { user } = active;
    await allowSignOutRedirect(gateway, reply, active.session.entryId);
    // Routine, like a proxied request let through: a signed-in user's page,
    // whose sign-in its callback's line recorded (docs/configuration.md#logs).
    markRoutine(request);
    return sendPage(
      reply,
      200,
      portalPage({
        user: { ...shownUser(user), isAdmin: user.isAdmin },
        signOutCsrf: csrfTokenFor(active.id),
        page: pageContext(gateway, request),
      }),
    );
  }
  return sendSignInNeeded(gateway, request, reply);
}
