import type { IncomingHttpHeaders } from 'node:http';
import type { AccessDecision } from '../access-rules/access-rules.js';
import { accessDecision } from '../access-rules/access-rules.js';
import { SsogateError } from '../../core/index.js';
import { normaliseHost, withoutPort } from '../../foundation/config/proxy-settings.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { UserRecord } from '../../foundation/storage/types.js';

/** A single-valued forwarded header; a repeated one is not trusted. */
export function forwarded(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The host of the request a proxy asks about, as far as a session's host
 * goes (sessions/request-session.ts sessionServes): X-Forwarded-Host, else
 * the host of X-Original-URL, which ingress-nginx's auth-url check carries
 * instead.
 */
export function forwardedHost(headers: IncomingHttpHeaders): string | undefined {
  return forwarded(headers, 'x-forwarded-host') ?? originalUrlHost(headers);
}

function originalUrlHost(headers: IncomingHttpHeaders): string | undefined {
  const original = forwarded(headers, 'x-original-url');
  if (original === undefined || original.length > 4096) return undefined;
  try {
    return new URL(original).host;
  } catch {
    return undefined;
  }
}

/**
 * Whether X-Forwarded-Host and the host of X-Original-URL both name a host,
 * and not the same one (compared by name, as sessions are). Each proxy sets
 * one of the two itself and passes the other on as the client sent it:
 * ingress-nginx's auth-url check adds X-Original-URL and passes the client's
 * own X-Forwarded-Host; nginx with the documented snippet, Caddy and Traefik
 * set X-Forwarded-Host and pass a client's X-Original-URL. Two that disagree
 * mean a client wrote one, perhaps to have a cookie of another host judged
 * there: the check is refused rather than one of them believed.
 */
export function forwardedHostsDisagree(headers: IncomingHttpHeaders): boolean {
  const host = forwarded(headers, 'x-forwarded-host');
  if (host === undefined || headers['x-original-url'] === undefined) return false;
  const original = originalUrlHost(headers);
  return (
    original !== undefined &&
    withoutPort(normaliseHost(host)) !== withoutPort(normaliseHost(original))
  );
}

/** The access decision, or a check that does not say which path the proxy will serve. */
type ForwardedDecision =
  AccessDecision | { readonly allowed: false; readonly misforwarded: SsogateError };

/**
 * The access rules' decision on the request a proxy asks about, read from
 * X-Forwarded-Host and X-Forwarded-Uri (or X-Original-URI, nginx's habit):
 * the one reading of the full route and the fast path alike.
 */
export function forwardedAccess(
  gateway: Gateway,
  headers: IncomingHttpHeaders,
  user: UserRecord,
): ForwardedDecision {
  const { accessRules } = gateway.config;
  const target = forwardedTarget(headers, accessRules.length > 0);
  if (typeof target !== 'string') return { allowed: false, misforwarded: target };
  return accessDecision(accessRules, forwarded(headers, 'x-forwarded-host'), target, user);
}

/**
 * The path the proxy will serve, as it named it. A proxy sets one of the
 * two headers and passes the client's other headers on as they came (nginx
 * does into auth_request), so two different values mean that one is the
 * client's, and no one can say which the proxy serves: refused, never
 * chosen. With access rules, a check naming no path is refused too rather
 * than judged as `/`; without rules the path decides nothing.
 */
function forwardedTarget(headers: IncomingHttpHeaders, judged: boolean): string | SsogateError {
  const forwardedUri = forwarded(headers, 'x-forwarded-uri');
  const originalUri = forwarded(headers, 'x-original-uri');
  if (forwardedUri !== undefined && originalUri !== undefined && forwardedUri !== originalUri) {
    return new SsogateError(
      'forwarded_uri_conflict',
      'X-Forwarded-Uri and X-Original-URI name different paths; the proxy must set one and clear the other',
    );
  }
  const target = forwardedUri ?? originalUri;
  if (target !== undefined) return target;
  if (!judged) return '/';
  return new SsogateError(
    'forwarded_uri_missing',
    'neither X-Forwarded-Uri nor X-Original-URI names the path, and access rules are set',
  );
}
