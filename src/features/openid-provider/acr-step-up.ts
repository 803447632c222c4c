import type { AuthorizationParameters } from '../../core/index.js';
import { acrRequestOf, acrSatisfiedBy } from '../../core/index.js';
import type { SessionFactor } from '../../foundation/storage/types.js';
import type { ActiveSession } from '../sessions/session-service.js';
import {
  factorAfterParameter,
  markedTime,
  signedInAfterParameter,
} from './fresh-sign-in-marker.js';
import type { Gateway } from './provider-gateway.js';

/**
 * What the sign-in makes of an authorization request's acr
 * (docs/openid-provider.md#assurance-acr): satisfied (or nothing the
 * gateway knows asked for, or a voluntary request the step-up could not
 * meet); a step-up, the factor page first; or, an essential acr still not
 * satisfied after the step-up, unmet.
 */
type AcrVerdict = 'satisfied' | 'step-up' | 'unmet';

/**
 * Judges the request's acr by the session's second factor. A factor counts
 * for the request as its sign-in does: given since the request sent the
 * browser to sign in (its marker), or within `max_age`; a sign-in's factor
 * is given after it, so a sign-in fresh enough for max_age has one that is,
 * and the rule only keeps that true of any session. The browser is sent to
 * the factor page once a request: back with a factor given since (the
 * factor-after marker), a factor that still satisfies none of the values
 * (a code where a passkey was asked for) answers a voluntary acr with what
 * it does satisfy, and refuses an essential one.
 */
export function judgeAcr(
  gateway: Gateway,
  clientId: string,
  parameters: AuthorizationParameters,
  active: ActiveSession,
): AcrVerdict {
  const asked = acrRequestOf(parameters);
  // A `claims` that cannot be read, or an essential acr the gateway never
  // states, was refused before (authorizationRefusal).
  if (asked === undefined || 'refused' in asked) return 'satisfied';
  const factor = countedFactor(gateway, clientId, parameters, active.session.factor);
  const satisfied = acrSatisfiedBy(factor?.method);
  if (asked.values.some((value) => satisfied.includes(value))) return 'satisfied';
  const sentAt = markedTime(
    gateway,
    factorAfterParameter,
    clientId,
    parameters[factorAfterParameter],
  );
  if (factor === undefined || !(factor.at >= sentAt)) return 'step-up';
  return asked.essential ? 'unmet' : 'satisfied';
}

/** The session's factor, if it counts for the request's max_age and sign-in marker. */
function countedFactor(
  gateway: Gateway,
  clientId: string,
  parameters: AuthorizationParameters,
  factor: SessionFactor | undefined,
): SessionFactor | undefined {
  if (factor === undefined) return undefined;
  const signedInAfter = markedTime(
    gateway,
    signedInAfterParameter,
    clientId,
    parameters[signedInAfterParameter],
  );
  if (Number.isFinite(signedInAfter)) return factor.at >= signedInAfter ? factor : undefined;
  if (parameters.max_age === undefined) return factor;
  return gateway.clock() - factor.at <= Number(parameters.max_age) * 1000 ? factor : undefined;
}
