import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { hostListed } from '../../foundation/config/served-hosts.js';
import { sendToHandoff } from '../sign-in/handoff-start.js';
import { sessionOf } from '../sessions/request-session.js';
import { authHostSignInUrl, returnHopPath } from '../sign-in/auth-host-sign-in.js';
import { forwardAuthDecision, parseAbsolute } from './decision.js';
import { forwardedHost } from './forwarded-request.js';

/**
 * Forward-auth: the check a proxy in front of an application makes before
 * serving each request.
 * - GET /_sso/auth (nginx auth_request): 204 with the identity headers
 *   (docs/proxy.md), 401 without a valid session, 403 when an access rule refuses.
 * - GET /_sso/auth/redirect (Traefik forwardAuth, Caddy forward_auth): the
 *   same, but a page load without a session gets a 302 to sign in, coming
 *   back to the original URL when its host is one the operator listed.
 * Both read the original request from X-Forwarded-Host and X-Forwarded-Uri
 * (or X-Original-URI, nginx's habit) for the access rules.
 * - GET /_sso/auth/return?rd=URL: where a sign-in started by the redirect
 *   lands, sending the browser on to the listed host.
 * The answers are forwardAuthDecision's (decision.ts), which the fast path
 * (fast-path.ts) gives before the framework when the session is known.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function forwardAuthRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    forwardAuthCheckRoutes(scope, gateway);
  });
}

function forwardAuthCheckRoutes(app: FastifyInstance, gateway: Gateway): void {
  const observed = { onResponse: gateway.telemetry.forwardAuthHook };
  for (const [path, check] of [
    ['/_sso/auth', 'check'],
    ['/_sso/auth/redirect', 'redirect'],
  ] as const) {
    app.get(path, observed, async (request, reply) => {
      const active = await sessionOf(gateway, request, {
        remembered: true,
        host: forwardedHost(request.headers),
      });
      const answer = forwardAuthDecision(gateway, check, request.headers, active);
      if (answer.kind === 'allow') {
        const { headers } = answer;
        for (let at = 0; at < headers.length; at += 2)
          void reply.header(headers[at] ?? '', headers[at + 1]);
        return reply.code(204).send();
      }
      if (answer.kind === 'failure') {
        sendFailure(gateway, request, reply, answer.error, answer.options);
        return reply;
      }
      if (answer.kind === 'second-factor') return reply.redirect(answer.location, 302);
      if (answer.kind === 'handoff')
        return sendToHandoff(gateway, request, reply, answer.host, answer.returnTo);
      return reply.redirect(await authHostSignInUrl(gateway, answer.returnTo), 302);
    });
  }

  app.get<{ Querystring: { rd?: string } }>(returnHopPath, async (request, reply) => {
    const target = parseAbsolute(request.query.rd);
    const allowed = target !== undefined && hostListed(gateway.config.hosts, target.host);
    return reply.redirect(allowed ? target.href : '/', 302);
  });
}
