import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { finishHandoff, handoffFinishPath, handoffPath, issueHandoff } from './handoff.js';
import { handoffStartPath, startHandoffFromProxy } from './handoff-start.js';

/**
 * The handoff of a sign-in to another host (handoff.ts): its two steps at
 * the gateway, and the start a proxy may name. Under SSOGATE_COOKIE_DOMAIN
 * every host shares the sign-in's cookie, so there are no steps to take;
 * the start stays, sending the browser to sign in at the auth host.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function handoffRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    handoffStepRoutes(scope, gateway);
  });
}

function handoffStepRoutes(app: FastifyInstance, gateway: Gateway): void {
  const { hosts } = gateway.config;
  if (!hosts.several) return;
  app.get<{ Querystring: Record<string, unknown> }>(handoffStartPath, (request, reply) =>
    startHandoffFromProxy(gateway, request, reply),
  );
  if (hosts.cookieDomain !== undefined) return;
  // The issuing step reads the sign-in's own session: the auth host's alone.
  authHostOnly(app, gateway, (scope) => {
    scope.get<{ Querystring: Record<string, unknown> }>(handoffPath, (request, reply) =>
      issueHandoff(gateway, request, reply),
    );
  });
  app.get<{ Querystring: Record<string, unknown> }>(handoffFinishPath, (request, reply) =>
    finishHandoff(gateway, request, reply),
  );
}
