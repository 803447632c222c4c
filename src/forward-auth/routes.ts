import type { FastifyInstance } from 'fastify';
import { SsogateError } from '../core/index.js';
import { readCookie } from '../app/browser-cookies.js';
import type { Gateway } from '../app/gateway.js';
import { sendFailure } from '../app/respond.js';
import { resolveSession } from '../sessions/session-service.js';

/**
 * GET /_sso/auth: the check a reverse proxy makes before serving a request
 * (nginx auth_request): 204 with the identity headers of SPEC 9 when the
 * browser's session is valid, 401 otherwise. It is on every request's path,
 * so it does one session lookup and nothing else.
 */
export function forwardAuthRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get('/_sso/auth', async (request, reply) => {
    const active = await resolveSession(gateway.sessions, readCookie(gateway, request, 'session'));
    if (active === undefined) {
      sendFailure(gateway, request, reply, new SsogateError('unauthenticated', 'no session'), {
        as: 'json',
      });
      return reply;
    }
    const { user } = active;
    void reply.header('x-auth-request-user', user.userId);
    if (user.email !== null) void reply.header('x-auth-request-email', user.email);
    if (user.userName !== null)
      void reply.header('x-auth-request-preferred-username', headerSafe(user.userName));
    return reply.code(204).send();
  });
}

/** Header values must be Latin-1 without controls; a name in another script is sent percent-encoded. */
function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);
}
