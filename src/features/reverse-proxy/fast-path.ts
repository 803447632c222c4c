import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastAnswers } from '../../foundation/http/fast-answer.js';
import { isFaviconRequest } from '../portal/brand-routes.js';
import { rememberedSessionOf, sessionIdOf } from '../sessions/request-session.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { proxyDecision } from './decision.js';
import { forwardToUpstream } from './proxy-http.js';
import { proxyTarget } from './proxy-target.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Methods Fastify routes to the proxy like any other; anything else takes the full route. */
const plainMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route pattern the proxy's failures name (routes.ts). */
const proxyRoute = '/*';

/**
 * A proxied request answered before the framework when everything it needs
 * is already known: a path that is already in its normal form (so the
 * framework's router would have sent it to the proxy, never to a /_sso
 * route), an upstream for it, and a session remembered under the current
 * change stamp (src/foundation/http/session-cache.ts) or no session cookie at all. The
 * answer is proxyDecision's, the route's own: passed on through the same
 * steps as the route's (the same target, headers and identity, body
 * streamed), or a failure written by writeFailure, sendFailure's twin
 * (src/foundation/http/respond.ts). Anything else (a session to look up, a page load to
 * send to sign in, a path to normalise) goes to `handler`, the full route.
 * The request lines of requests passed on are sampled
 * (src/foundation/http/fast-answer.ts); the others are all written.
 */
export function withProxyFastPath(answers: FastAnswers, handler: Handler): Handler {
  const { gateway } = answers;
  const { upstreams } = gateway.config;
  if (upstreams.length === 0) return handler;
  return (request, response) => {
    const url = request.url ?? '';
    if (!plainMethods.has(request.method ?? '')) {
      handler(request, response);
      return;
    }
    const target = proxyTarget(upstreams, url, request.headers.host);
    if ('refused' in target || target.upstream === undefined) {
      handler(request, response);
      return;
    }
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    if (rawPath !== target.matchPath || rawPath.toLowerCase().startsWith('/_sso')) {
      handler(request, response);
      return;
    }
    const startedAt = performance.now();
    const active = rememberedSessionOf(gateway, request);
    // Without a session, the route answers the favicon with the mark.
    if (
      active === undefined &&
      (sessionIdOf(gateway, request) !== undefined || isFaviconRequest(request))
    ) {
      handler(request, response);
      return;
    }
    const { upstream, path, matchPath } = target;
    const answer = proxyDecision(gateway, request, upstream, matchPath, active);
    if (answer.kind === 'sign-in' || answer.kind === 'second-factor') {
      handler(request, response);
      return;
    }
    if (answer.kind === 'failure') {
      answers.failed(request, response, proxyRoute, answer.error, answer.options, startedAt);
      return;
    }
    void forwardToUpstream(gateway, answers.log(), request, response, {
      upstream,
      path,
      context: answer.context,
    })
      .then((failure) => {
        if (failure === undefined) {
          answers.allowed(request, response, startedAt);
          return;
        }
        if (response.headersSent) return;
        answers.failed(
          request,
          response,
          proxyRoute,
          failure,
          { tryAgainHref: safeReturnTo(path) },
          startedAt,
        );
      })
      .catch((error: unknown) => {
        answers.log().error({ err: error }, 'proxying failed');
        response.destroy();
      });
  };
}
