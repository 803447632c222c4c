import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../http/gateway.js';
import { NoSessionError, sendFailure } from '../http/respond.js';
import { hostListed } from '../config/served-hosts.js';
import { accessDenied } from '../access-rules/access-rules.js';
import { SsogateError } from '../core/index.js';
import { entryHref } from '../pages/index.js';
import { identityHeaders } from './identity-headers.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { sessionOf } from '../sessions/request-session.js';
import { handsOffHere, sendToHandoff } from '../sign-in/handoff-start.js';
import { chooserHref } from '../sign-in/send-to-sign-in.js';
import { safeReturnTo } from '../web/index.js';
import { forwarded, forwardedAccess } from './forwarded-request.js';
import { returnHop, returnHopPath } from './return-hop.js';

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
  const observed = { onResponse: gateway.telemetry.forwardAuthHook };
  app.get('/_sso/auth', observed, async (request, reply) => {
    const active = await sessionOf(gateway, request, { remembered: true });
    if (active === undefined) {
      sendFailure(gateway, request, reply, new NoSessionError(), {
        as: 'json',
      });
      return reply;
    }
    return allowOrDeny(gateway, request, reply, active);
  });

  app.get('/_sso/auth/redirect', observed, async (request, reply) => {
    const active = await sessionOf(gateway, request, { remembered: true });
    if (active !== undefined) return allowOrDeny(gateway, request, reply, active);
    const method = forwarded(request.headers, 'x-forwarded-method') ?? 'GET';
    const accept = request.headers.accept ?? '';
    if ((method !== 'GET' && method !== 'HEAD') || !accept.includes('text/html')) {
      sendFailure(gateway, request, reply, new NoSessionError(), {
        as: 'json',
      });
      return reply;
    }
    const original = originalUrl(request);
    if (original === undefined || !hostListed(gateway.config.hosts, original.host)) {
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
    // Another host than the auth host gets a session of its own by a handoff.
    if (handsOffHere(gateway, original.host))
      return sendToHandoff(
        gateway,
        request,
        reply,
        original.host,
        original.pathname + original.search,
      );
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
    const allowed = target !== undefined && hostListed(gateway.config.hosts, target.host);
    return reply.redirect(allowed ? target.href : '/', 302);
  });
}

function allowOrDeny(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  active: ActiveSession,
): FastifyReply {
  const decision = forwardedAccess(gateway, request.headers, active.user);
  if ('misforwarded' in decision) {
    sendFailure(gateway, request, reply, decision.misforwarded, { as: 'json' });
    return reply;
  }
  // The same reading of the path as the reverse proxy's (request-path.ts).
  if ('refused' in decision) {
    sendFailure(gateway, request, reply, new SsogateError('request_invalid', decision.refused), {
      as: 'json',
    });
    return reply;
  }
  if ('deniedPath' in decision) {
    sendFailure(gateway, request, reply, accessDenied(active.user, decision.deniedPath), {
      as: 'json',
    });
    return reply;
  }
  for (const [name, value] of identityHeaders(active.user)) void reply.header(name, value);
  return reply.code(204).send();
}

/** The URL the browser asked the proxy for, from X-Forwarded-Proto, -Host and -Uri. */
function originalUrl(request: FastifyRequest): URL | undefined {
  const proto = forwarded(request.headers, 'x-forwarded-proto') ?? 'https';
  const host = forwarded(request.headers, 'x-forwarded-host');
  const uri = forwarded(request.headers, 'x-forwarded-uri') ?? '/';
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
