import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError, buildLogoutRequest } from '../core/index.js';
import { audit } from '../app/audit.js';
import { clearSessionCookie, readCookie } from '../app/browser-cookies.js';
import type { Gateway } from '../app/gateway.js';
import { sendFailure, sendPage } from '../app/respond.js';
import { signedOutPage } from '../pages/index.js';
import { csrfTokenFor, endSession } from './session-service.js';

/** GET/POST /_sso/logout and GET /_sso/signed-out (docs/design.md#signing-out). */
export function sessionRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get('/_sso/logout', async (request, reply) => signOut(gateway, request, reply, 302));

  app.post<{ Body: { csrf?: unknown } | undefined }>('/_sso/logout', async (request, reply) => {
    const sessionId = readCookie(gateway, request, 'session');
    const token = request.body?.csrf ?? request.headers['x-csrf-token'];
    if (sessionId !== undefined && token !== csrfTokenFor(sessionId)) {
      sendFailure(
        gateway,
        request,
        reply,
        new SsogateError('csrf_failed', 'the sign-out form token does not match'),
        {
          as: 'page',
          tryAgainHref: '/',
        },
      );
      return reply;
    }
    // 303 after a POST, never 307/308 (RFC 9700 §4.12).
    return signOut(gateway, request, reply, 303);
  });

  // Never redirects to sign-in by itself: that would sign the user straight back in.
  app.get('/_sso/signed-out', async (_request, reply) => sendPage(reply, 200, signedOutPage()));
}

async function signOut(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  status: 302 | 303,
): Promise<FastifyReply> {
  const ended = await endSession(gateway.sessions, readCookie(gateway, request, 'session'));
  clearSessionCookie(gateway, reply);
  void reply.header('clear-site-data', '"cookies"');
  if (ended === undefined) return reply.redirect('/_sso/signed-out', status);
  await audit(gateway, request, {
    kind: 'sign_out',
    outcome: 'success',
    entryId: ended.session.entryId,
    userId: ended.user.userId,
  });
  const entry =
    ended.session.entryId === null ? undefined : await gateway.entries.get(ended.session.entryId);
  const logout =
    entry === undefined
      ? undefined
      : buildLogoutRequest(entry, { publicUrl: gateway.config.publicUrl, random: gateway.random });
  if (logout?.channel === 'front') return reply.redirect(logout.url, status);
  if (logout?.channel === 'back') {
    // The secret stays server-side; the sign-out holds even if the server is down.
    try {
      await gateway.send(logout.request);
    } catch (error) {
      request.log.warn(
        { code: 'logout_notification_failed', entryId: ended.session.entryId },
        (error as Error).name,
      );
    }
  }
  return reply.redirect('/_sso/signed-out', status);
}
