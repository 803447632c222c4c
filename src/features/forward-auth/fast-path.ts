import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastAnswers } from '../../foundation/http/fast-answer.js';
import { securityHeaders } from '../../foundation/web/index.js';
import { rememberedSessionOf, sessionIdOf } from '../sessions/request-session.js';
import type { ForwardAuthCheck } from './decision.js';
import { authHostSignInUrl } from '../sign-in/auth-host-sign-in.js';
import { forwardAuthDecision } from './decision.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The two checks by path, as the routes name them (routes.ts). */
const checks = new Map<string, ForwardAuthCheck>([
  ['/_sso/auth', 'check'],
  ['/_sso/auth/redirect', 'redirect'],
]);

/**
 * The forward-auth checks (GET /_sso/auth and /_sso/auth/redirect) answered
 * before the framework when the session is already known: remembered under
 * the current change stamp (src/foundation/http/session-cache.ts), or no session cookie
 * at all. That is nearly every check a proxy makes, and the framework's
 * routing, hooks and reply machinery would cost more than the check. The
 * answer is forwardAuthDecision's, the route's own; a failure is written by
 * writeFailure, sendFailure's twin (src/foundation/http/respond.ts). A session to look
 * up goes to `handler`, the full route. The request lines of allowed checks
 * are sampled (src/foundation/http/fast-answer.ts); the others are all written.
 */
export function withForwardAuthFastPath(answers: FastAnswers, handler: Handler): Handler {
  const { gateway } = answers;
  // What the app's onSend hook adds to the route's redirect (src/app/build-app.ts).
  const pageHeaders = securityHeaders({ https: gateway.config.secureCookies });
  return (request, response) => {
    const check = request.method === 'GET' ? checks.get(request.url ?? '') : undefined;
    if (check === undefined) {
      handler(request, response);
      return;
    }
    const startedAt = performance.now();
    const active = rememberedSessionOf(gateway, request);
    if (active === undefined && sessionIdOf(gateway, request) !== undefined) {
      handler(request, response);
      return;
    }
    const answer = forwardAuthDecision(gateway, check, request.headers, active);
    if (answer.kind === 'allow') {
      response.writeHead(204, answer.headers as string[]);
      response.end();
      answers.allowed(request, response, startedAt);
      gateway.telemetry.forwardAuthFast(request.headers, startedAt, 204, true);
    } else if (answer.kind === 'failure') {
      const { status } = answers.failed(
        request,
        response,
        request.url ?? '',
        answer.error,
        answer.options,
        startedAt,
      );
      gateway.telemetry.forwardAuthFast(request.headers, startedAt, status, active !== undefined);
    } else if (answer.kind === 'second-factor') {
      response.writeHead(302, { ...pageHeaders, location: answer.location, 'content-length': 0 });
      response.end();
      answers.completed(answers.requestLog(), request, 302, startedAt);
      gateway.telemetry.forwardAuthFast(request.headers, startedAt, 302, true);
    } else if (answer.kind === 'handoff') {
      // The handoff sets the browser's nonce cookie: the route answers it.
      handler(request, response);
    } else {
      void authHostSignInUrl(gateway, answer.returnTo)
        .then((location) => {
          response.writeHead(302, { ...pageHeaders, location, 'content-length': 0 });
          response.end();
          answers.completed(answers.requestLog(), request, 302, startedAt);
          gateway.telemetry.forwardAuthFast(request.headers, startedAt, 302, false);
        })
        .catch((error: unknown) => {
          answers.failed(request, response, request.url ?? '', error, {}, startedAt);
        });
    }
  };
}
