import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../foundation/http/gateway.js';
import { finishHandoff, handoffFinishPath, handoffPath, issueHandoff } from './handoff.js';
import { handoffStartPath, startHandoffFromProxy } from './handoff-start.js';

/** The handoff of a sign-in to another host (handoff.ts): its two steps at the gateway. */
export function handoffRoutes(app: FastifyInstance, gateway: Gateway): void {
  if (!gateway.config.hosts.several) return;
  app.get<{ Querystring: Record<string, unknown> }>(handoffPath, (request, reply) =>
    issueHandoff(gateway, request, reply),
  );
  app.get<{ Querystring: Record<string, unknown> }>(handoffFinishPath, (request, reply) =>
    finishHandoff(gateway, request, reply),
  );
  app.get<{ Querystring: Record<string, unknown> }>(handoffStartPath, (request, reply) =>
    startHandoffFromProxy(gateway, request, reply),
  );
}
