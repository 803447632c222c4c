import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import type { OidcClientRecord } from '../../foundation/storage/types.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { sessionOf } from '../sessions/request-session.js';
import { sendToSignIn } from '../sign-in/send-to-sign-in.js';
import { clientAccepts } from './client-rules.js';
import { issuerOf } from './endpoints.js';
import { codeLifetimeMs } from './lifetimes.js';
import { sidOf, signInHashOf } from './sign-in-grants.js';

/**
 * Set on the return-to of a sign-in the request asked to be fresh
 * (prompt=login, max_age): the time it was sent, so that coming back with a
 * session made since, the request is answered rather than sent again.
 */
const signedInAfterParameter = 'ssogate_signed_in_after';

/** An S256 code challenge: the base64url SHA-256 of the verifier (RFC 7636 §4.2). */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

type Parameters = Readonly<Record<string, string | undefined>>;

/** The query's parameters; a repeated one is refused (RFC 6749 §3.1). */
function parametersOf(query: unknown): Parameters | 'repeated' {
  const parameters: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') return 'repeated';
    parameters[name] = value;
  }
  return parameters;
}

/**
 * The authorization endpoint (OpenID Connect Core §3.1.2): response_type
 * code only. Until the client and its redirect URI are known to match, a
 * failure is a page of ours; after, it goes back to the client as
 * `error=` (RFC 6749 §4.1.2.1). The sign-in is the gateway's own: with a
 * session the code goes straight back; without, the browser signs in and
 * returns here.
 */
export async function authorize(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  void reply.header('cache-control', 'no-store');
  const parameters = parametersOf(request.query);
  const named = (name: string) => (parameters === 'repeated' ? undefined : parameters[name]);
  const clientId = named('client_id');
  const redirectUri = named('redirect_uri');
  const client =
    clientId === undefined ? undefined : await gateway.storage.oidcClients.get(clientId);
  if (
    client === undefined ||
    redirectUri === undefined ||
    !client.redirectUris.includes(redirectUri)
  ) {
    const why =
      client === undefined
        ? 'the authorization request names no known client'
        : "the redirect_uri is not one of the client's, exactly";
    sendFailure(gateway, request, reply, new SsogateError('oidc_authorization_invalid', why), {
      as: 'page',
    });
    return reply;
  }
  const back = (answer: Record<string, string>) => {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(answer)) url.searchParams.append(name, value);
    const state = named('state');
    if (state !== undefined) url.searchParams.append('state', state);
    url.searchParams.append('iss', issuerOf(gateway));
    return reply.redirect(url.href, 302);
  };
  const refuse = (error: string, description: string) =>
    back({ error, error_description: description });
  if (parameters === 'repeated') return refuse('invalid_request', 'a parameter is repeated');
  const problem = requestProblem(parameters, client);
  if (problem !== undefined) return refuse(problem.error, problem.description);

  const prompts = (parameters.prompt ?? '').split(' ').filter((word) => word !== '');
  const silent = prompts.includes('none');
  const active = await sessionOf(gateway, request);
  const now = gateway.clock();
  const signedInAfter = Number(parameters[signedInAfterParameter] ?? Number.NaN);
  const maxAge = parameters.max_age === undefined ? undefined : Number(parameters.max_age);
  const fresh =
    active !== undefined &&
    (Number.isFinite(signedInAfter)
      ? active.session.createdAt >= signedInAfter
      : !prompts.includes('login') &&
        (maxAge === undefined || now - active.session.createdAt <= maxAge * 1000));
  if (!fresh) {
    if (silent) return refuse('login_required', 'no signed-in session at the gateway');
    const url = new URL(request.url, 'http://gateway.invalid');
    if (prompts.includes('login') || maxAge !== undefined) {
      url.searchParams.set(signedInAfterParameter, String(now));
    }
    const returnTo = url.pathname + url.search;
    if (safeReturnTo(returnTo) !== returnTo) {
      return refuse('invalid_request', 'the authorization request is too long to come back to');
    }
    return sendToSignIn(gateway, request, reply, returnTo);
  }
  if (!clientAccepts(client, active)) {
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError(
        'oidc_user_refused',
        `the client ${client.clientId} does not accept ${active.user.userId}`,
      ),
      { as: 'page' },
    );
    return reply;
  }
  const code = Buffer.from(gateway.random(32)).toString('base64url');
  const grantId = Buffer.from(gateway.random(16)).toString('hex');
  // The grant lives by the gateway sign-in it comes from (sign-in-grants.ts).
  const signInHash = signInHashOf(active.session);
  await gateway.storage.oidcGrants.addGrant({
    grantId,
    clientId: client.clientId,
    userRowId: active.user.id,
    subject: active.user.userId,
    entryId: active.session.entryId,
    signInHash,
    sid: sidOf(signInHash),
    createdAt: now,
  });
  await gateway.storage.oidcGrants.addCode({
    codeHash: sha256Base64url(code),
    grantId,
    clientId: client.clientId,
    redirectUri,
    codeChallenge: parameters.code_challenge ?? null,
    nonce: parameters.nonce ?? null,
    scope: parameters.scope ?? 'openid',
    userRowId: active.user.id,
    entryId: active.session.entryId,
    authTime: active.session.createdAt,
    expiresAt: now + codeLifetimeMs,
  });
  return back({ code });
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
  const prompts = (parameters.prompt ?? '').split(' ').filter((word) => word !== '');
  if (prompts.some((prompt) => prompt !== 'none' && prompt !== 'login')) {
    return problem('invalid_request', 'prompt may be none or login');
  }
  if (prompts.includes('none') && prompts.length > 1) {
    return problem('invalid_request', 'prompt=none cannot be combined');
  }
  if (parameters.max_age !== undefined && !/^\d{1,9}$/.test(parameters.max_age)) {
    return problem('invalid_request', 'max_age must be a whole number of seconds');
  }
  return undefined;
}
