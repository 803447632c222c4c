import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessAllowed } from '../access-rules/access-rules.js';
import { normaliseTarget } from '../access-rules/request-path.js';
import type { Gateway } from '../http/gateway.js';
import { sendFailure } from '../http/respond.js';
import { hostAllowed } from '../config/proxy-settings.js';
import { SsogateError } from '../core/index.js';
import { entryHref } from '../pages/index.js';
import { identityHeaders } from './identity-headers.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { chooserHref } from '../sign-in/routes.js';
import { safeReturnTo } from '../web/index.js';
import { returnHop, returnHopPath } from './return-hop.js';
import { cachedSession } from './session-cache.js';

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
 */
export function forwardAuthRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get('/_sso/auth', async (request, reply) => {
    const active = await cachedSession(gateway, request);
    if (active === undefined) {
      sendFailure(gateway, request, reply, new SsogateError('unauthenticated', 'no session'), {
        as: 'json',
      });
      return reply;
    }
    return allowOrDeny(gateway, request, reply, active);
  });

  app.get('/_sso/auth/redirect', async (request, reply) => {
    const active = await cachedSession(gateway, request);
    if (active !== undefined) return allowOrDeny(gateway, request, reply, active);
    const method = forwarded(request, 'x-forwarded-method') ?? 'GET';
    const accept = request.headers.accept ?? '';
    if ((method !== 'GET' && method !== 'HEAD') || !accept.includes('text/html')) {
      sendFailure(gateway, request, reply, new SsogateError('unauthenticated', 'no session'), {
        as: 'json',
      });
      return reply;
    }
    const original = originalUrl(request);
    if (original === undefined || !hostAllowed(gateway.config.forwardAuthHosts, original.host)) {
      sendFailure(
        gateway,
        request,
        reply,
        new SsogateError(
          'request_invalid',
          `forward-auth for ${original?.host ?? 'an unreadable URL'}, a host not listed in SSOGATE_FORWARD_AUTH_HOSTS`,
        ),
        { as: 'page', tryAgainHref: '/' },
      );
      return reply;
    }
    const { publicUrl } = gateway.config;
    const returnTo =
      original.origin === publicUrl
        ? safeReturnTo(original.pathname + original.search)
        : returnHop(original.href);
    const defaultEntry = await gateway.entries.defaultEntry();
    const signIn =
      defaultEntry === undefined ? chooserHref(returnTo) : entryHref(defaultEntry.id, returnTo);
    return reply.redirect(`${publicUrl}${signIn}`, 302);
  });

  app.get<{ Querystring: { rd?: string } }>(returnHopPath, async (request, reply) => {
    const target = parseAbsolute(request.query.rd);
    const allowed =
      target !== undefined && hostAllowed(gateway.config.forwardAuthHosts, target.host);
    return reply.redirect(allowed ? target.href : '/', 302);
  });
}

function allowOrDeny(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: ActiveSession,
): FastifyReply {
  const { accessRules } = gateway.config;
  if (accessRules.length > 0) {
    const uri =
      forwarded(request, 'x-forwarded-uri') ?? forwarded(request, 'x-original-uri') ?? '/';
    // The same reading of the path as the reverse proxy's (request-path.ts).
    const target = normaliseTarget(uri);
    if ('refused' in target) {
      sendFailure(gateway, request, reply, new SsogateError('request_invalid', target.refused), {
        as: 'json',
      });
      return reply;
    }
    const { path } = target;
    const host = forwarded(request, 'x-forwarded-host');
    if (!accessAllowed(accessRules, host, path, active.user)) {
      sendFailure(
        gateway,
        request,
        reply,
        new SsogateError('access_denied', `${active.user.userId} may not reach ${path}`),
        { as: 'json' },
      );
      return reply;
    }
  }
  for (const [name, value] of identityHeaders(active.user)) void reply.header(name, value);
  return reply.code(204).send();
}

/** A single-valued forwarded header; a repeated one is not trusted. */
function forwarded(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The URL the browser asked the proxy for, from X-Forwarded-Proto, -Host and -Uri. */
function originalUrl(request: FastifyRequest): URL | undefined {
  const proto = forwarded(request, 'x-forwarded-proto') ?? 'https';
  const host = forwarded(request, 'x-forwarded-host');
  const uri = forwarded(request, 'x-forwarded-uri') ?? '/';
  if (host === undefined || !/^https?$/.test(proto) || !uri.startsWith('/')) return undefined;
  return parseAbsolute(`${proto}://${host}${uri}`);
}

/** An absolute http(s) URL without credentials, whose host is what it seems. */
function parseAbsolute(raw: string | undefined): URL | undefined {
  if (raw === undefined || raw.length > 4096 || /[\s\\\p{Cc}]/u.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol) || url.username !== '' || url.password !== '')
    return undefined;
  return url;
}
