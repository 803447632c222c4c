import type { SsogateError } from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { factorRecentEnough, secondFactorNeeded } from '../access-rules/access-rules.js';
import type { RequestSession } from './request-session.js';

/**
 * The factor page (second-factor/factor-paths.ts secondFactorPath), which
 * asks for a code or enrols an authenticator on first need. The console and
 * the admin API sit below the second-factor slice (docs/architecture.md,
 * layers), so they name its path rather than import it; the console's
 * factor test checks the two agree.
 */
const factorPagePath = '/_sso/factor';

/**
 * Under SSOGATE_ADMIN_SECOND_FACTOR=required, why an administrator's
 * console session may not use the console or the admin API yet: it holds
 * no second factor, or none given within
 * SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES. The refusal is the proxy's
 * for an access rule's factor (`second_factor_required`, 401), naming the
 * path asked for. Undefined when the setting is off or the factor counts.
 * Only a session is judged: an API token is no sign-in, and holds no factor
 * (docs/security.md#second-factor).
 */
export function consoleFactorRefusal(
  gateway: Gateway,
  active: RequestSession,
  path: string,
): SsogateError | undefined {
  const required = gateway.config.adminSecondFactor;
  if (required === undefined) return undefined;
  const check = { session: active.session, now: gateway.clock() };
  return factorRecentEnough(check, required.withinMs)
    ? undefined
    : secondFactorNeeded(active.user, path);
}

/**
 * The factor page, coming back to `returnTo` (a console path, which
 * safeReturnTo lets through: foundation/web/return-to.ts) once the factor
 * is given. The factor is asked on the auth host, as the console is.
 */
export function consoleFactorHref(returnTo: string): string {
  return `${factorPagePath}?return_to=${encodeURIComponent(returnTo)}`;
}
