import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../http/gateway.js';
import { rememberedSessionOf } from '../sessions/request-session.js';
import { forwardedAccess } from './forwarded-request.js';
import type { UserRecord } from '../storage/types.js';
import { identityHeaders } from './identity-headers.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * GET /_sso/auth answered before the framework when the answer is already
 * known: a session remembered under the current change stamp
 * (src/http/session-cache.ts) that the access rules let through. That is nearly every
 * check a proxy makes, and the framework's routing, hooks and reply
 * machinery would cost more than the check. The answer carries
 * `Cache-Control: no-store` and the identity headers. Everything else (no session, a
 * session to look up, a refusal) goes to `handler`, the full route, which
 * answers exactly as before. The fast answers are not logged as request lines.
 */
export function withForwardAuthFastPath(gateway: Gateway, handler: Handler): Handler {
  return (request, response) => {
    if (request.method === 'GET' && request.url === '/_sso/auth') {
      const startedAt = gateway.telemetry.now();
      const active = rememberedSessionOf(gateway, request);
      if (active !== undefined && forwardedAccess(gateway, request.headers, active.user).allowed) {
        response.writeHead(204, answerHeaders(active.user));
        response.end();
        gateway.telemetry.forwardAuthFast(request.headers, startedAt);
        return;
      }
    }
    handler(request, response);
  };
}

/** The answer's headers by remembered user record: a record never changes, a changed user is a new one. */
const headersByUser = new WeakMap<UserRecord, string[]>();

/**
 * The headers of an allowed check, as Node.js takes them flat; encoded once
 * per remembered user rather than at every check. A 204 has no document for
 * the page headers (CSP, frame options) to protect; what matters is that no
 * cache keeps an identity answer.
 */
function answerHeaders(user: UserRecord): string[] {
  let headers = headersByUser.get(user);
  if (headers === undefined) {
    headers = ['Cache-Control', 'no-store', ...identityHeaders(user).flat()];
    headersByUser.set(user, headers);
  }
  return headers;
}
