import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SsogateError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { NoSessionError, sendFailure } from '../../foundation/http/respond.js';
import { stylesheet } from '../../foundation/pages/index.js';
import { sessionOf } from '../sessions/request-session.js';
import { brandRoutes } from './brand-routes.js';

/**
 * The signed-in user as JSON, the health checks, the stylesheet, and
 * unknown paths under /_sso. Every other path is an internal resource
 * (src/features/reverse-proxy/routes.ts): proxied to an upstream, or the gateway's
 * own portal page (internal-resource.ts) (docs/design.md#the-http-surface).
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function portalRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    portalAndHealthRoutes(scope, gateway);
  });
}

function portalAndHealthRoutes(app: FastifyInstance, gateway: Gateway): void {
  brandRoutes(app, gateway);

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
    const active = await sessionOf(gateway, request);
    if (active === undefined) {
      sendFailure(gateway, request, reply, new NoSessionError(), {
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
