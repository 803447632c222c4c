import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessAllowed, matchPath } from '../access-rules/access-rules.js';
import type { Gateway } from '../http/gateway.js';
import { identityHeaders } from './identity-headers.js';
import { cookieNames, parseCookieHeader } from '../web/index.js';
import { rememberedSession } from './session-cache.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * GET /_sso/auth answered before the framework when the answer is already
 * known: a session remembered under the current change stamp
 * (session-cache.ts) that the access rules let through. That is nearly every
 * check a proxy makes, and the framework's routing, hooks and reply
 * machinery would cost more than the check. The answer carries
 * `Cache-Control: no-store` and the identity headers. Everything else (no session, a
 * session to look up, a refusal) goes to `handler`, the full route, which
 * answers exactly as before. The fast answers are not logged as request lines.
 */
export function withForwardAuthFastPath(gateway: Gateway, handler: Handler): Handler {
  const sessionCookie = cookieNames(gateway.config.secureCookies).session;
  // A 204 has no document for the page headers (CSP, frame options) to
  // protect; what matters is that no cache keeps an identity answer.
  const fixedHeaders = ['Cache-Control', 'no-store'];
  const { accessRules } = gateway.config;
  return (request, response) => {
    if (request.method === 'GET' && request.url === '/_sso/auth') {
      const active = rememberedSession(
        gateway,
        parseCookieHeader(request.headers.cookie).get(sessionCookie),
      );
      if (active !== undefined && allowed(request, active.user)) {
        response.writeHead(204, [...fixedHeaders, ...identityHeaders(active.user).flat()]);
        response.end();
        return;
      }
    }
    handler(request, response);
  };

  function allowed(request: IncomingMessage, user: Parameters<typeof accessAllowed>[3]): boolean {
    if (accessRules.length === 0) return true;
    const uri =
      single(request.headers['x-forwarded-uri']) ?? single(request.headers['x-original-uri']);
    const path = matchPath(uri ?? '/');
    return (
      path !== undefined &&
      accessAllowed(accessRules, single(request.headers['x-forwarded-host']), path, user)
    );
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
