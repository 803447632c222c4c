import type { IncomingHttpHeaders } from 'node:http';
import { accessDenied, accessVerdict, secondFactorNeeded } from '../access-rules/access-rules.js';
import type { Upstream } from '../../foundation/config/proxy-settings.js';
import type { SsogateError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { FailureOptions } from '../../foundation/http/respond.js';
import { NoSessionError, wantsPage } from '../../foundation/http/respond.js';
import type { RememberedSession } from '../../foundation/http/session-cache.js';
import { sessionServes } from '../sessions/request-session.js';
import { forwardContext, rulesHost } from './forward-context.js';
import type { ForwardContext } from './proxy-headers.js';

/**
 * A proxied request's answer once its upstream is known, decided once for
 * the route (routes.ts) and the fast path (fast-path.ts) alike:
 * - allow: passed on with `context` (the identity headers among it);
 * - sign-in: a page load without a session, sent to sign in (sendSignInNeeded);
 * - second-factor: a page load whose access rule asks for a second factor
 *   the session lacks, sent to give it (sendSecondFactorNeeded);
 * - failure: the coded error, answered by sendFailure or writeFailure.
 */
type ProxyAnswer =
  | { readonly kind: 'allow'; readonly context: ForwardContext }
  | { readonly kind: 'sign-in' }
  | { readonly kind: 'second-factor' }
  | { readonly kind: 'failure'; readonly error: SsogateError; readonly options: FailureOptions };

/**
 * The answer to a request for `matchPath` of `upstream`, for the session
 * `active` or none. A session bound to another host than the request's
 * counts as none (sessions/request-session.ts sessionServes).
 */
export function proxyDecision(
  gateway: Gateway,
  request: { readonly method?: string | undefined; readonly headers: IncomingHttpHeaders },
  upstream: Upstream,
  matchPath: string,
  active: RememberedSession | undefined,
): ProxyAnswer {
  const served =
    active !== undefined && sessionServes(gateway, active.session, request.headers.host)
      ? active
      : undefined;
  if (served === undefined) {
    // A page load comes back here after signing in; anything else is told 401.
    if (wantsPage(request)) return { kind: 'sign-in' };
    return { kind: 'failure', error: new NoSessionError(), options: { as: 'json' } };
  }
  const { user, session } = served;
  const verdict = accessVerdict(
    gateway.config.accessRules,
    rulesHost(gateway, upstream),
    matchPath,
    user,
    gateway.memory.lastHost,
    { session, now: gateway.clock() },
  );
  if (verdict === 'second-factor') {
    if (wantsPage(request)) return { kind: 'second-factor' };
    return {
      kind: 'failure',
      error: secondFactorNeeded(user, matchPath),
      options: { as: 'json' },
    };
  }
  if (verdict === 'deny') {
    return {
      kind: 'failure',
      error: accessDenied(user, matchPath),
      options: { tryAgainHref: '/' },
    };
  }
  return { kind: 'allow', context: forwardContext(gateway, upstream, user, false) };
}
