import type { IncomingHttpHeaders } from 'node:http';
import { accessDenied, secondFactorNeeded } from '../access-rules/access-rules.js';
import { secondFactorUrl } from '../second-factor/factor-paths.js';
import { hostListed } from '../../foundation/config/served-hosts.js';
import { SsogateError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { FailureOptions } from '../../foundation/http/respond.js';
import { NoSessionError } from '../../foundation/http/respond.js';
import type { RememberedSession } from '../../foundation/http/session-cache.js';
import { sessionServes } from '../sessions/request-session.js';
import { handsOffHere } from '../sign-in/handoff-start.js';
import type { SessionRecord, UserRecord } from '../../foundation/storage/types.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import {
  forwarded,
  forwardedAccess,
  forwardedHost,
  forwardedHostsDisagree,
} from './forwarded-request.js';
import { identityHeaders } from './identity-headers.js';
import { returnHop } from '../sign-in/auth-host-sign-in.js';

/** Which of the two checks: nginx's (401 without a session) or the redirecting one. */
export type ForwardAuthCheck = 'check' | 'redirect';

/**
 * A forward-auth check's answer, decided once for the route (routes.ts) and
 * the fast path (fast-path.ts) alike:
 * - allow: 204 with `headers` (Cache-Control and the identity headers, flat);
 * - sign-in: 302 to where a sign-in starts, coming back to `returnTo`;
 * - handoff: an application host other than the auth host, which gets a
 *   session of its own through the handoff (src/features/sign-in/handoff-start.ts);
 * - second-factor: 302 to `location`, the auth host's page that asks for the
 *   second factor an access rule wants (src/features/second-factor/);
 * - failure: the coded error, answered by sendFailure or writeFailure.
 */
type ForwardAuthAnswer =
  | { readonly kind: 'allow'; readonly headers: readonly string[] }
  | { readonly kind: 'sign-in'; readonly returnTo: string }
  | { readonly kind: 'handoff'; readonly host: string; readonly returnTo: string }
  | { readonly kind: 'second-factor'; readonly location: string }
  | { readonly kind: 'failure'; readonly error: SsogateError; readonly options: FailureOptions };

const asJson: FailureOptions = { as: 'json' };

/**
 * The answer to a check made with `headers`, for the session `active` or
 * none. A session bound to another host than the proxied request's
 * (X-Forwarded-Host) counts as none (sessions/request-session.ts sessionServes).
 */
export function forwardAuthDecision(
  gateway: Gateway,
  check: ForwardAuthCheck,
  headers: IncomingHttpHeaders,
  active: RememberedSession | undefined,
): ForwardAuthAnswer {
  if (forwardedHostsDisagree(headers)) {
    const error = new SsogateError(
      'request_invalid',
      'X-Forwarded-Host and X-Original-URL name different hosts',
    );
    return { kind: 'failure', error, options: asJson };
  }
  if (active !== undefined && sessionServes(gateway, active.session, forwardedHost(headers))) {
    return accessAnswer(gateway, check, headers, active.user, active.session);
  }
  if (check === 'check' || !forwardedPageLoad(headers))
    return { kind: 'failure', error: new NoSessionError(), options: asJson };
  const original = originalUrl(headers);
  if (original === undefined || !hostListed(gateway.config.hosts, original.host)) {
    return {
      kind: 'failure',
      error: new SsogateError(
        'request_invalid',
        `forward-auth for ${original?.host ?? 'an unreadable URL'}, a host not listed in SSOGATE_FORWARD_AUTH_HOSTS`,
      ),
      options: { as: 'page', tryAgainHref: '/' },
    };
  }
  if (handsOffHere(gateway, original.host)) {
    return { kind: 'handoff', host: original.host, returnTo: original.pathname + original.search };
  }
  const returnTo =
    original.origin === gateway.config.publicUrl
      ? safeReturnTo(original.pathname + original.search)
      : returnHop(original.href);
  return { kind: 'sign-in', returnTo };
}

/** Whether the proxied request is a top-level page load (GET or HEAD asking for HTML). */
function forwardedPageLoad(headers: IncomingHttpHeaders): boolean {
  const method = forwarded(headers, 'x-forwarded-method') ?? 'GET';
  const accept = headers.accept ?? '';
  return (method === 'GET' || method === 'HEAD') && accept.includes('text/html');
}

/**
 * Where a page load that needs a second factor goes: the auth host's factor
 * page, coming back to the original URL (through the return hop for another
 * listed host); undefined when the original URL is not one to come back to,
 * and the check is answered 401 as a request without a session would be.
 */
function secondFactorLocation(
  gateway: Gateway,
  check: ForwardAuthCheck,
  headers: IncomingHttpHeaders,
): string | undefined {
  if (check === 'check' || !forwardedPageLoad(headers)) return undefined;
  const original = originalUrl(headers);
  if (original === undefined || !hostListed(gateway.config.hosts, original.host)) return undefined;
  const returnTo =
    original.origin === gateway.config.publicUrl
      ? safeReturnTo(original.pathname + original.search)
      : returnHop(original.href);
  return secondFactorUrl(gateway, returnTo);
}

function accessAnswer(
  gateway: Gateway,
  check: ForwardAuthCheck,
  headers: IncomingHttpHeaders,
  user: UserRecord,
  session: SessionRecord,
): ForwardAuthAnswer {
  const decision = forwardedAccess(gateway, headers, user, session);
  if (decision.allowed) return { kind: 'allow', headers: allowedHeaders(gateway, user) };
  if ('misforwarded' in decision)
    return { kind: 'failure', error: decision.misforwarded, options: asJson };
  // The same reading of the path as the reverse proxy's (request-path.ts).
  if ('refused' in decision)
    return {
      kind: 'failure',
      error: new SsogateError('request_invalid', decision.refused),
      options: asJson,
    };
  if ('secondFactorPath' in decision) {
    const location = secondFactorLocation(gateway, check, headers);
    if (location !== undefined) return { kind: 'second-factor', location };
    const error = secondFactorNeeded(user, decision.secondFactorPath);
    return { kind: 'failure', error, options: asJson };
  }
  return { kind: 'failure', error: accessDenied(user, decision.deniedPath), options: asJson };
}

/**
 * The headers of an allowed check, as Node.js takes them flat; encoded once
 * per remembered user record (a changed user is a new record) rather than at
 * every check, in the gateway's memory (src/foundation/http/gateway-memory.ts). No
 * cache may keep an identity answer.
 */
function allowedHeaders(gateway: Gateway, user: UserRecord): readonly string[] {
  const memory = gateway.memory.identityHeaders;
  let headers = memory.get(user);
  if (headers === undefined) {
    headers = ['cache-control', 'no-store', ...identityHeaders(user).flat()];
    memory.set(user, headers);
  }
  return headers;
}

/** The URL the browser asked the proxy for, from X-Forwarded-Proto, -Host and -Uri. */
function originalUrl(headers: IncomingHttpHeaders): URL | undefined {
  const proto = forwarded(headers, 'x-forwarded-proto') ?? 'https';
  const host = forwarded(headers, 'x-forwarded-host');
  const uri = forwarded(headers, 'x-forwarded-uri') ?? '/';
  if (host === undefined || !/^https?$/.test(proto) || !uri.startsWith('/')) return undefined;
  return parseAbsolute(`${proto}://${host}${uri}`);
}

/** An absolute http(s) URL without credentials, whose host is what it seems. */
export function parseAbsolute(raw: string | undefined): URL | undefined {
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
