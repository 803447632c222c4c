import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../core/index.js';
import { readCookie } from '../http/browser-cookies.js';
import type { Gateway } from '../http/gateway.js';
import { sendFailure, sendPage, wantsPage } from '../http/respond.js';
import { portalPage, stylesheet } from '../pages/index.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { csrfTokenFor, resolveSession } from '../sessions/session-service.js';
import { allowSignOutRedirect, shownUser } from '../sessions/sign-out-form.js';
import { chooserHref, redirectToEntry } from '../sign-in/routes.js';
import { safeReturnTo } from '../web/index.js';

/**
 * The signed-in user as JSON, the health checks, the stylesheet, and
 * unknown paths under /_sso. Every other path is an internal resource
 * (src/reverse-proxy/routes.ts): proxied to an upstream, or the gateway's
 * own portal page (docs/design.md#the-http-surface).
 */
export function portalRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get('/_sso/healthz', () => ({ status: 'ok' }));

  app.get('/_sso/readyz', async (request, reply) => {
    try {
      await gateway.storage.ping();
      return { status: 'ready' };
    } catch (error) {
      sendFailure(
        gateway,
        request,
        reply,
        new SsogateError('service_unavailable', 'the database or Redis does not answer', {
          cause: error,
        }),
        {
          as: 'json',
        },
      );
      return reply;
    }
  });

  app.get('/_sso/assets/style.css', async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(stylesheet),
  );

  app.get('/_sso/me', async (request, reply) => {
    const active = await currentSession(gateway, request);
    if (active === undefined) {
      sendFailure(gateway, request, reply, new SsogateError('unauthenticated', 'no session'), {
        as: 'json',
      });
      return reply;
    }
    const { user, session } = active;
    return {
      userId: user.userId,
      userName: user.userName,
      email: user.email,
      mobile: user.mobile,
      department: user.department,
      isAdmin: user.isAdmin,
      entryId: session.entryId,
    };
  });

  // Any other path under the reserved prefix is the gateway's, and unknown.
  app.all('/_sso/*', async (request, reply) => {
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError(
        'not_found',
        `no route ${request.method} ${request.url.split('?')[0] ?? ''}`,
      ),
    );
    return reply;
  });
}

export async function currentSession(
  gateway: Gateway,
  request: FastifyRequest,
): Promise<ActiveSession | undefined> {
  return resolveSession(gateway.sessions, readCookie(gateway, request, 'session'));
}

/** An internal resource without an upstream: the portal page, or sign-in first. */
export async function internalResource(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const sessionId = readCookie(gateway, request, 'session');
  const active = await resolveSession(gateway.sessions, sessionId);
  if (active !== undefined && sessionId !== undefined) {
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
    return sendPage(
      reply,
      200,
      portalPage({
        user: { ...shownUser(user), isAdmin: user.isAdmin },
        signOutCsrf: csrfTokenFor(sessionId),
      }),
    );
  }
  return sendSignInNeeded(gateway, request, reply);
}

/**
 * The answer to a request without a valid session: a page load is sent to
 * sign in (the default entry's, or the chooser) and comes back to the same
 * URL after; anything else gets 401 JSON.
 */
export async function sendSignInNeeded(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (!wantsPage(request)) {
    sendFailure(gateway, request, reply, new SsogateError('unauthenticated', 'no session'), {
      as: 'json',
    });
    return reply;
  }
  // The requested URL, query included, is where the user lands after sign-in.
  const returnTo = safeReturnTo(request.url);
  const defaultEntry = await gateway.entries.defaultEntry();
  if (defaultEntry !== undefined)
    return redirectToEntry(gateway, request, reply, defaultEntry.id, returnTo);
  return reply.redirect(chooserHref(returnTo), 302);
}
