import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SsogateError } from '../../core/index.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { extensionCheckRoute } from './check-route.js';
import { createApiRouter } from './api-router.js';
import type { ApiRouter } from './api-router.js';
import { auditRoutes } from './audit-routes.js';
import { entryRoutes } from './entry-routes.js';
import { entryStateRoutes } from './entry-state-routes.js';
import { entryToolRoutes } from './entry-tool-routes.js';
import { openApiRoute } from './openapi-route.js';
import { passwordRoutes } from './password-routes.js';
import { presetRoutes } from './preset-routes.js';
import { tokenRoutes } from './token-routes.js';
import { userAdminRoutes } from './user-admin-routes.js';
import { userRoutes } from './user-routes.js';

/**
 * The admin REST API under /_sso/api (docs/admin-api.md): JSON in and out, for an API
 * token or an administrator's session. Each resource's routes live in their
 * own file, described as data (api-router.ts): the same descriptions
 * validate the requests and make the OpenAPI document.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function adminApiRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  featureRoutes: readonly FeatureApiRoutes[] = [],
): Promise<void> {
  await featureScope(app, (scope) => {
    adminApiScope(scope, gateway, featureRoutes);
  });
}

function adminApiScope(
  app: FastifyInstance,
  gateway: Gateway,
  featureRoutes: readonly FeatureApiRoutes[] = [],
): void {
  authHostOnly(app, gateway, (scope) => {
    apiRoutes(scope, gateway, featureRoutes);
  });
}

/**
 * A feature's resources in the admin API (the test sign-ins:
 * trial-sign-in/admin/; the OpenID Provider's clients:
 * openid-provider/admin/), declared through the same router as the API's
 * own, so they are authenticated, validated and documented alike. The
 * composition root (app/build-app.ts) hands them in: the admin API imports
 * no feature that sits above it.
 */
export interface FeatureApiRoutes {
  /**
   * Where they are declared among the API's own routes, which is their
   * place in the OpenAPI document: with the entries' (a test sign-in starts
   * with an entry), or after the API's own resources.
   */
  readonly among: 'entries' | 'resources';
  readonly declare: (api: ApiRouter) => void;
}

function apiRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  featureRoutes: readonly FeatureApiRoutes[],
): void {
  const api = createApiRouter(app, gateway);
  const declareFeatures = (among: FeatureApiRoutes['among']) => {
    for (const routes of featureRoutes) if (routes.among === among) routes.declare(api);
  };
  entryRoutes(api);
  entryStateRoutes(api);
  entryToolRoutes(api);
  declareFeatures('entries');
  presetRoutes(api);
  userRoutes(api);
  userAdminRoutes(api);
  passwordRoutes(api);
  auditRoutes(api);
  tokenRoutes(api);
  declareFeatures('resources');
  extensionCheckRoute(api);
  openApiRoute(app, api);

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
