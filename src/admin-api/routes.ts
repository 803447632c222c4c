import type { FastifyInstance } from 'fastify';
import { SsogateError } from '../core/index.js';
import type { Gateway } from '../app/gateway.js';
import { sendFailure } from '../app/respond.js';
import { auditRoutes } from './audit-routes.js';
import { entryRoutes } from './entry-routes.js';
import { userRoutes } from './user-routes.js';

/**
 * The admin REST API under /_sso/api (SPEC 9): JSON in and out, for an API
 * token or an administrator's session. Each resource's routes live in their
 * own file and share one pipeline (api-route.ts).
 */
export function adminApiRoutes(app: FastifyInstance, gateway: Gateway): void {
  entryRoutes(app, gateway);
  userRoutes(app, gateway);
  auditRoutes(app, gateway);

  // An unknown API path answers in JSON, never with the portal's page or the
  // reverse proxy: /_sso is reserved for the gateway.
  app.all('/_sso/api/*', (request, reply) => {
    void reply.header('cache-control', 'no-store');
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError('not_found', `no API route ${request.method} ${request.url}`),
      {
        as: 'json',
      },
    );
    return reply;
  });
}
