import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listedButForPort } from '../../foundation/config/served-hosts.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { SsogateError } from '../../core/index.js';
import { isFaviconRequest, sendMark } from '../portal/brand-routes.js';
import { internalResource } from '../portal/internal-resource.js';
import { sessionOf } from '../sessions/request-session.js';
import { sendSecondFactorNeeded } from '../second-factor/factor-paths.js';
import { sendSignInNeeded } from '../sign-in/send-to-sign-in.js';
import { proxyDecision } from './decision.js';
import { proxyHttp } from './proxy-http.js';
import { proxyTarget } from './proxy-target.js';
import { proxyUpgrade } from './proxy-upgrade.js';

/**
 * Every path outside /_sso: with an upstream whose prefix matches, the
 * request is proxied after the session check and the access rules; without,
 * it is the portal page. The answer is proxyDecision's (decision.ts), which
 * the fast path (fast-path.ts) gives before the framework when the session
 * is known. The routes live in a context of their own in which
 * no body is parsed, so a proxied body streams through untouched and of any
 * size; the gateway's own routes keep their parsers and limits.
 */
export async function internalResourceRoutes(
  app: FastifyInstance,
  gateway: Gateway,
): Promise<void> {
  await app.register((context, _options, registered) => {
    context.removeAllContentTypeParsers();
    context.addContentTypeParser('*', (_request, _payload, done) => {
      done(null, undefined);
    });

    const misported = misportedHostWarning(gateway);
    context.all('/*', async (request, reply) => {
      misported(request);
      const target = proxyTarget(gateway.config.upstreams, request.url, request.headers.host);
      if ('refused' in target) {
        sendFailure(gateway, request, reply, new SsogateError('request_invalid', target.refused));
        return reply;
      }
      const favicon = isFaviconRequest(request);
      if (target.upstream === undefined) {
        return favicon ? sendMark(reply) : internalResource(gateway, request, reply);
      }
      const active = await sessionOf(gateway, request, { remembered: true });
      if (active === undefined && favicon) return sendMark(reply);
      const { upstream, path, matchPath } = target;
      const answer = proxyDecision(gateway, request, upstream, matchPath, active);
      if (answer.kind === 'sign-in') return sendSignInNeeded(gateway, request, reply);
      if (answer.kind === 'second-factor') return sendSecondFactorNeeded(gateway, request, reply);
      if (answer.kind === 'failure') {
        sendFailure(gateway, request, reply, answer.error, answer.options);
        return reply;
      }
      return proxyHttp(gateway, request, reply, upstream, path, answer.context);
    });
    registered();
  });

  if (gateway.config.upstreams.length === 0) return;
  // WebSocket handshakes never reach Fastify's routes. The app's close
  // closes the sockets open (src/app/build-app.ts).
  app.server.on('upgrade', (request, socket: Duplex, head: Buffer) => {
    proxyUpgrade(gateway, app.log, request, socket, head).catch((error: unknown) => {
      app.log.error({ err: error }, 'WebSocket proxying failed');
      socket.destroy();
    });
  });
}

/**
 * Logs, once per listed host, a request whose Host names a listed host but
 * for its port (served-hosts.ts listedButForPort): it is served as an
 * unlisted host, and its sign-in fails. Kept per app, so two gateways in
 * one process each say it.
 */
function misportedHostWarning(gateway: Gateway): (request: FastifyRequest) => void {
  const told = new Set<string>();
  return (request) => {
    const listed = listedButForPort(gateway.config.hosts, request.headers.host);
    if (listed === undefined || told.has(listed)) return;
    told.add(listed);
    request.log.warn(
      { host: request.headers.host, listed },
      `Host ${request.headers.host ?? ''} is ${listed} but for its port: hosts are compared with their port, so it is served as an unlisted host and its sign-in fails; list it with the port browsers send (docs/proxy.md#many-hosts)`,
    );
  };
}
