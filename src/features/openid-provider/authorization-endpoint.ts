import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderRefusalCode } from '../../core/index.js';
import { SsogateError, authorizationRefusal, promptsOf } from '../../core/index.js';
import type { Gateway } from './provider-gateway.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { sessionOf } from '../sessions/request-session.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import {
  issueCode,
  matchedRequest,
  refusePage,
  refuseToClient,
  refuseUser,
} from './authorization-request.js';
import { clientAccepts } from './client-rules.js';
import { askConsent, consentNeeded } from './consent.js';
import { getRequestPath, providerPaths } from './endpoints.js';
import {
  factorAfterParameter,
  markedTime,
  markerValue,
  signedInAfterParameter,
} from './fresh-sign-in-marker.js';
import { hintNames, hintedBy } from './id-token-hint.js';
import { judgeAcr } from './acr-step-up.js';
import { factorHref } from '../second-factor/factor-paths.js';

/**
 * The authorization endpoint (OpenID Connect Core §3.1.2): response_type
 * code only. Until the client and its redirect URI are known to match, a
 * failure is a page of ours; after, it goes back to the client as
 * `error=` (RFC 6749 §4.1.2.1). The sign-in is the gateway's own: with a
 * session the code goes straight back, or after the consent page when the
 * client asks for it (consent.ts); without, the browser signs in and
 * returns here. An acr the session's second factor does not satisfy sends
 * it to the factor page first, and back here (acr-step-up.ts). GET and POST alike (Core §3.1.2.1): a POST's form holds
 * the parameters.
 */
export async function authorize(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  void reply.header('cache-control', 'no-store');
  const posted = request.method === 'POST';
  const matched = await matchedRequest(gateway, posted ? request.body : request.query);
  if (matched instanceof SsogateError) {
    return refusePage(gateway, request, reply, matched, 'oidc_code');
  }
  const { client, parameters } = matched;
  // Refused before the session is read: the client is told, the user not yet known.
  const early = (code: ProviderRefusalCode) =>
    refuseToClient(gateway, request, reply, matched, code);
  if (parameters === 'repeated') return early('provider_authorize_parameter_repeated');
  const problem = authorizationRefusal(parameters, client.secretHash === null);
  if (problem !== undefined) return early(problem);

  const prompts = promptsOf(parameters);
  const silent = prompts.includes('none');
  const active = await sessionOf(gateway, request);
  const refuse = (code: ProviderRefusalCode) =>
    refuseToClient(gateway, request, reply, matched, code, { active });
  const tooLong = () => refuse('provider_authorize_too_long');
  const now = gateway.clock();
  const signedInAfter = markedTime(
    gateway,
    signedInAfterParameter,
    client.clientId,
    parameters[signedInAfterParameter],
  );
  const maxAge = parameters.max_age === undefined ? undefined : Number(parameters.max_age);
  const fresh =
    active !== undefined &&
    (Number.isFinite(signedInAfter)
      ? active.session.createdAt >= signedInAfter
      : !prompts.includes('login') &&
        (maxAge === undefined || now - active.session.createdAt <= maxAge * 1000));
  const url = posted ? getRequestPath(providerPaths.authorize, parameters) : request.url;
  if (posted && active === undefined) {
    // A cross-site POST comes without the SameSite=Lax session cookie: the
    // same request as a GET (a top-level navigation) brings it, if there is one.
    const path = requestPath(url);
    if (path === undefined) {
      return tooLong();
    }
    return reply.redirect(path, 303);
  }
  // When a fresh sign-in is asked for (prompt=login, max_age), marked with
  // the time it is sent at, so that coming back signed in since, the request
  // is answered rather than sent to sign in again.
  const marked =
    fresh || !(prompts.includes('login') || maxAge !== undefined)
      ? {}
      : {
          [signedInAfterParameter]: markerValue(
            gateway,
            signedInAfterParameter,
            client.clientId,
            now,
          ),
        };
  const returnTo = requestPath(url, marked);
  if (!fresh) {
    if (silent) return refuse('provider_login_required');
    if (returnTo === undefined) {
      return tooLong();
    }
    return sendToSignIn(gateway, request, reply, returnTo);
  }
  if (silent && parameters.id_token_hint !== undefined) {
    // Core §3.1.2.1: the answer is for the user the hint names, or none;
    // a hint not signed by this provider names no one.
    const hint = await hintedBy(gateway, parameters.id_token_hint);
    if (hint === undefined || !(await hintNames(gateway, hint, active))) {
      return refuse('provider_login_required_hint');
    }
  }
  if (!clientAccepts(client, active)) return refuseUser(gateway, request, reply, client, active);
  const acr = judgeAcr(gateway, client.clientId, parameters, active);
  if (acr === 'unmet') return refuse('provider_acr_unmet');
  if (acr === 'step-up') {
    if (silent) return refuse('provider_interaction_required_factor');
    // The factor page comes back to this request, marked with the time it
    // was sent (acr-step-up.ts): the request is checked anew on its return.
    const marker = markerValue(gateway, factorAfterParameter, client.clientId, now);
    const back = requestPath(url, { [factorAfterParameter]: marker });
    if (back === undefined) return tooLong();
    return reply.redirect(factorHref(back), posted ? 303 : 302);
  }
  const checked = { client, redirectUri: matched.redirectUri, parameters };
  if (await consentNeeded(gateway, checked, active, prompts.includes('consent'))) {
    if (silent) return refuse('provider_consent_required');
    if (returnTo === undefined) {
      return tooLong();
    }
    return askConsent(gateway, request, reply, checked, active, returnTo);
  }
  return issueCode(gateway, request, reply, checked, active);
}

/**
 * The path and query of this request, to come back to after a sign-in, a
 * second factor or a consent, with `markers` (fresh-sign-in-marker.ts) set
 * on it. Undefined when too long to come back to.
 */
function requestPath(
  url: string,
  markers: Readonly<Record<string, string>> = {},
): string | undefined {
  const path = new URL(url, 'http://gateway.invalid');
  for (const [name, value] of Object.entries(markers)) path.searchParams.set(name, value);
  const returnTo = path.pathname + path.search;
  return safeReturnTo(returnTo) === returnTo ? returnTo : undefined;
}
