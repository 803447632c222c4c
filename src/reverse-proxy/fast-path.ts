import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { accessAllowed } from '../access-rules/access-rules.js';
import type { Gateway } from '../http/gateway.js';
import { pageContext } from '../http/page-context.js';
import { failureAnswer, wantsPage } from '../http/respond.js';
import { rememberedSessionOf } from '../sessions/request-session.js';
import { safeReturnTo, securityHeaders } from '../web/index.js';
import { forwardContext, publicHost } from './forward-context.js';
import { forwardToUpstream } from './proxy-http.js';
import { proxyTarget } from './proxy-target.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Methods Fastify routes to the proxy like any other; anything else takes the full route. */
const plainMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A proxied request passed on before the framework when everything it needs
 * is already known: a path that is already in its normal form (so the
 * framework's router would have sent it to the proxy, never to a /_sso
 * route), an upstream for it, a session remembered under the current change
 * stamp (src/http/session-cache.ts), and access rules that let the user
 * through. The request then goes through the same steps as the full route
 * (routes.ts): the same target, headers and identity, body streamed, the same
 * coded failure when the upstream does not answer. Anything else — no or
 * unknown session, a refusal, a path to normalise — goes to `handler`, the
 * full route, which answers exactly as before. Like the forward-auth fast
 * path, these requests are not logged as request lines; failures are.
 */
export function withProxyFastPath(
  gateway: Gateway,
  log: () => FastifyBaseLogger,
  handler: Handler,
): Handler {
  const { upstreams, accessRules } = gateway.config;
  if (upstreams.length === 0) return handler;
  const host = publicHost(gateway);
  const pageHeaders = securityHeaders({ https: gateway.config.secureCookies });
  /** The target and user of a request the fast path may pass on; undefined for the full route. */
  const passable = (request: IncomingMessage) => {
    const url = request.url ?? '';
    if (!plainMethods.has(request.method ?? '')) return undefined;
    const target = proxyTarget(upstreams, url, request.headers.host);
    if ('refused' in target || target.upstream === undefined) return undefined;
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    if (rawPath !== target.matchPath || rawPath.toLowerCase().startsWith('/_sso')) return undefined;
    const active = rememberedSessionOf(gateway, request);
    if (
      active === undefined ||
      !accessAllowed(accessRules, target.upstream.host ?? host, target.matchPath, active.user)
    )
      return undefined;
    return { upstream: target.upstream, path: target.path, user: active.user };
  };
  return (request, response) => {
    const passed = passable(request);
    if (passed === undefined) {
      handler(request, response);
      return;
    }
    const { upstream, path } = passed;
    void forwardToUpstream(gateway, log(), request, response, {
      upstream,
      path,
      context: forwardContext(gateway, upstream, passed.user, false),
    })
      .then((failure) => {
        if (failure === undefined || response.headersSent) return;
        const asPage = wantsPage(request);
        const answer = failureAnswer(gateway, { log: log(), route: '/*' }, failure, asPage, {
          tryAgainHref: safeReturnTo(path),
          page: pageContext(gateway, request),
        });
        const body = request.method === 'HEAD' ? '' : answer.body;
        response.writeHead(answer.status, {
          ...pageHeaders,
          ...answer.headers,
          'content-type': asPage ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(answer.body),
        });
        response.end(body);
      })
      .catch((error: unknown) => {
        log().error({ err: error }, 'proxying failed');
        response.destroy();
      });
  };
}
