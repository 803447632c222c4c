import type { IncomingHttpHeaders } from 'node:http';
import type { AccessDecision } from '../access-rules/access-rules.js';
import { accessDecision } from '../access-rules/access-rules.js';
import { SsogateError } from '../../core/index.js';
import { normaliseHost, withoutPort } from '../../foundation/config/proxy-settings.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { SessionRecord, UserRecord } from '../../foundation/storage/types.js';

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
 * its host (forwardedHost) and the path it names (forwardedTarget): the one
 * reading of the full route and the fast path alike.
 */
export function forwardedAccess(
  gateway: Gateway,
  headers: IncomingHttpHeaders,
  user: UserRecord,
  session: SessionRecord,
): ForwardedDecision {
  const { accessRules } = gateway.config;
  const target = forwardedTarget(headers, accessRules.length > 0);
  if (typeof target !== 'string') return { allowed: false, misforwarded: target };
  return accessDecision(
    accessRules,
    forwardedHost(headers),
    target,
    user,
    gateway.memory.lastHost,
    { session, now: gateway.clock() },
  );
}

/** The headers that name the path a proxy serves, each as the proxy or the client wrote it. */
const uriHeaders = ['X-Original-URL', 'X-Forwarded-Uri', 'X-Original-URI'] as const;

/**
 * The path the proxy will serve, as it named it: the path and query of
 * X-Original-URL (ingress-nginx's auth-url check, which sets no other),
 * X-Forwarded-Uri (the nginx snippet of docs/proxy.md, Traefik, Caddy) or
 * X-Original-URI (nginx's other habit). A proxy sets one of them and passes
 * the client's other headers on as they came (nginx does into auth_request,
 * ingress-nginx too), so two that differ mean that one is the client's, and
 * no one can say which the proxy serves: refused, never chosen. With access
 * rules, a check naming no path is refused too rather than judged as `/`;
 * without rules the path decides nothing.
 */
function forwardedTarget(headers: IncomingHttpHeaders, judged: boolean): string | SsogateError {
  const original = forwarded(headers, 'x-original-url');
  const fromUrl = original === undefined ? undefined : requestTargetOf(original);
  if (original !== undefined && fromUrl === undefined) {
    return new SsogateError(
      'request_invalid',
      'X-Original-URL is not an http(s) URL whose path starts with /',
    );
  }
  const named = [
    fromUrl,
    forwarded(headers, 'x-forwarded-uri'),
    forwarded(headers, 'x-original-uri'),
  ];
  const [target, ...others] = named.filter((value) => value !== undefined);
  if (target !== undefined && others.some((other) => other !== target)) {
    const names = uriHeaders.filter((_, at) => named[at] !== undefined).join(', ');
    return new SsogateError(
      'forwarded_uri_conflict',
      `${names} name different paths; the proxy must set one and clear the others`,
    );
  }
  if (target !== undefined) return target;
  if (!judged) return '/';
  return new SsogateError(
    'forwarded_uri_missing',
    'none of X-Original-URL, X-Forwarded-Uri and X-Original-URI names the path, and access rules are set',
  );
}

/**
 * The request target of an absolute URL, as written after its authority:
 * ingress-nginx sends `$scheme://$http_host$request_uri`, so this is the
 * request URI the client sent. It is cut from the text rather than read by a
 * URL parser, which would resolve dot segments and turn backslashes into
 * slashes: the path is read once, by the access rules' own reading
 * (src/features/access-rules/request-path.ts), as the other headers' are.
 */
function requestTargetOf(url: string): string | undefined {
  if (url.length > 4096) return undefined;
  const target = /^https?:\/\/[^/?#\\\s]*(.*)$/is.exec(url)?.[1];
  if (target === undefined) return undefined;
  if (target === '') return '/';
  return target.startsWith('/') ? target : undefined;
}
