import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import type { Gateway } from './provider-gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import type { OidcClientRecord } from './storage/types.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { sessionOf } from '../sessions/request-session.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import { answerClient, issueCode, matchedRequest, refuseUser } from './authorization-request.js';
import { clientAccepts } from './client-rules.js';
import { askConsent, consentNeeded } from './consent.js';
import { getRequestPath, providerPaths } from './endpoints.js';
import {
  signedInAfterMarker,
  signedInAfterOf,
  signedInAfterParameter,
} from './fresh-sign-in-marker.js';
import { hintNames, hintedBy } from './id-token-hint.js';

/** An S256 code challenge: the base64url SHA-256 of the verifier (RFC 7636 §4.2). */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

type Parameters = Readonly<Record<string, string | undefined>>;

/** The words of `prompt` (OpenID Connect Core §3.1.2.1). */
function promptsOf(parameters: Parameters): string[] {
  return (parameters.prompt ?? '').split(' ').filter((word) => word !== '');
}

/**
 * The authorization endpoint (OpenID Connect Core §3.1.2): response_type
 * code only. Until the client and its redirect URI are known to match, a
 * failure is a page of ours; after, it goes back to the client as
 * `error=` (RFC 6749 §4.1.2.1). The sign-in is the gateway's own: with a
 * session the code goes straight back, or after the consent page when the
 * client asks for it (consent.ts); without, the browser signs in and
 * returns here. GET and POST alike (Core §3.1.2.1): a POST's form holds
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
    sendFailure(gateway, request, reply, matched, { as: 'page' });
    return reply;
  }
  const refuse = (error: string, description: string) =>
    answerClient(gateway, reply, matched, { error, error_description: description });
  const tooLong = () =>
    refuse('invalid_request', 'the authorization request is too long to come back to');
  const { client, parameters } = matched;
  if (parameters === 'repeated') return refuse('invalid_request', 'a parameter is repeated');
  const problem = requestProblem(parameters, client);
  if (problem !== undefined) return refuse(problem.error, problem.description);

  const prompts = promptsOf(parameters);
  const silent = prompts.includes('none');
  const active = await sessionOf(gateway, request);
  const now = gateway.clock();
  const signedInAfter = signedInAfterOf(
    gateway,
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
    const path = requestPath(url, undefined, [], undefined);
    if (path === undefined) {
      return tooLong();
    }
    return reply.redirect(path, 303);
  }
  const returnTo = requestPath(
    url,
    fresh ? undefined : signedInAfterMarker(gateway, client.clientId, now),
    prompts,
    maxAge,
  );
  if (!fresh) {
    if (silent) return refuse('login_required', 'no signed-in session at the gateway');
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
      return refuse('login_required', 'the id_token_hint does not name the signed-in user');
    }
  }
  if (!clientAccepts(client, active)) return refuseUser(gateway, request, reply, client, active);
  const checked = { client, redirectUri: matched.redirectUri, parameters };
  if (await consentNeeded(gateway, checked, active, prompts.includes('consent'))) {
    if (silent) return refuse('consent_required', 'the user has not allowed the application yet');
    if (returnTo === undefined) {
      return tooLong();
    }
    return askConsent(gateway, request, reply, checked, active, returnTo);
  }
  return issueCode(gateway, request, reply, checked, active);
}

/**
 * The path and query of this request, to come back to after a sign-in or a
 * consent; when a fresh sign-in is asked for (prompt=login, max_age), marked
 * with the time it is sent at, so that coming back signed in since, the
 * request is answered rather than sent to sign in again. Undefined when too
 * long to come back to.
 */
function requestPath(
  url: string,
  sentAt: string | undefined,
  prompts: readonly string[],
  maxAge: number | undefined,
): string | undefined {
  const path = new URL(url, 'http://gateway.invalid');
  if (sentAt !== undefined && (prompts.includes('login') || maxAge !== undefined)) {
    path.searchParams.set(signedInAfterParameter, sentAt);
  }
  const returnTo = path.pathname + path.search;
  return safeReturnTo(returnTo) === returnTo ? returnTo : undefined;
}

/** What is wrong with a request whose client and redirect URI are right, as RFC 6749 §4.1.2.1 names it. */
function requestProblem(
  parameters: Parameters,
  client: OidcClientRecord,
): { error: string; description: string } | undefined {
  const problem = (error: string, description: string) => ({ error, description });
  if (parameters.request !== undefined) {
    return problem('request_not_supported', 'request objects are not supported');
  }
  if (parameters.request_uri !== undefined) {
    return problem('request_uri_not_supported', 'request_uri is not supported');
  }
  if (![undefined, 'query', 'form_post'].includes(parameters.response_mode)) {
    // A fragment carries the code in no request to the server; any other mode is unknown.
    return problem('invalid_request', 'response_mode may be query or form_post');
  }
  if (parameters.response_type !== 'code') {
    return problem('unsupported_response_type', 'response_type must be code');
  }
  if (!(parameters.scope ?? '').split(' ').includes('openid')) {
    return problem('invalid_scope', 'the scope must include openid');
  }
  const challenge = parameters.code_challenge;
  if (challenge === undefined) {
    if (client.secretHash === null) {
      return problem('invalid_request', 'a public client must send a PKCE code_challenge (S256)');
    }
    if (parameters.code_challenge_method !== undefined) {
      return problem('invalid_request', 'code_challenge_method without code_challenge');
    }
  } else if (parameters.code_challenge_method !== 'S256' || !s256Challenge.test(challenge)) {
    return problem('invalid_request', 'the code_challenge must be S256');
  }
  const prompts = promptsOf(parameters);
  if (prompts.some((prompt) => !['none', 'login', 'consent'].includes(prompt))) {
    return problem('invalid_request', 'prompt may be none, login or consent');
  }
  if (prompts.includes('none') && prompts.length > 1) {
    return problem('invalid_request', 'prompt=none cannot be combined');
  }
  if (parameters.max_age !== undefined && !/^\d{1,9}$/.test(parameters.max_age)) {
    return problem('invalid_request', 'max_age must be a whole number of seconds');
  }
  return undefined;
}
