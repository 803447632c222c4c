import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthorizationParameters, ProviderRefusalCode } from '../../core/index.js';
import {
  SsogateError,
  acrRequestOf,
  authorizationParameters,
  isRedirectUriOf,
  providerRefusal,
} from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from './provider-gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import type { OidcClientRecord } from './storage/types.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { issuerOf } from './endpoints.js';
import { sendFormPost } from './form-post-response.js';
import { auditRefusal } from './oauth-answers.js';
import { codeLifetimeMs } from './lifetimes.js';
import { sidOf, signInHashOf } from './sign-in-grants.js';
import { subjectFor } from './subjects.js';

type Parameters = AuthorizationParameters;

/**
 * An authorization request whose client and redirect URI are known to match
 * (a registered client, one of its redirect URIs exactly, or on another
 * port for a public client's loopback IP one: src/core/provider/redirect-uris.ts): from here on its
 * errors go back to the client. Its parameters are 'repeated' when one is
 * given twice (RFC 6749 §3.1), which the client is then told.
 */
export interface MatchedRequest {
  readonly client: OidcClientRecord;
  readonly redirectUri: string;
  readonly parameters: Parameters | 'repeated';
}

/**
 * The request's client and redirect URI, or, when they do not match, the
 * coded error of a page of ours: the browser is then sent nowhere. The
 * error's facts name the client when it is a registered one, for the audit
 * trail (refusePage).
 */
export async function matchedRequest(
  gateway: Gateway,
  query: unknown,
): Promise<MatchedRequest | SsogateError> {
  const parameters = authorizationParameters(query);
  const named = (name: string) => (parameters === 'repeated' ? undefined : parameters[name]);
  const clientId = named('client_id');
  const redirectUri = named('redirect_uri');
  const client =
    clientId === undefined ? undefined : await gateway.storage.providerClients.get(clientId);
  if (client === undefined) {
    return new SsogateError(
      'oidc_authorization_invalid',
      'the authorization request names no known client',
    );
  }
  if (redirectUri === undefined || !isRedirectUriOf(client, redirectUri)) {
    return new SsogateError(
      'oidc_authorization_invalid',
      "the redirect_uri is not one of the client's, exactly",
      { facts: { clientId: client.clientId } },
    );
  }
  return { client, redirectUri, parameters };
}

/**
 * Sends the browser back to the client with the answer, the request's
 * `state` and the issuer (RFC 6749 §4.1.2, RFC 9207): 302 from the
 * authorization endpoint, 303 after a form's POST (RFC 9700 §4.12); or,
 * when the request asked for response_mode=form_post, a page that posts
 * them (OAuth 2.0 Form Post Response Mode).
 */
function answerClient(
  gateway: Gateway,
  reply: FastifyReply,
  request: MatchedRequest,
  answer: Readonly<Record<string, string>>,
  status: 302 | 303 = 302,
): FastifyReply {
  const fields: [string, string][] = Object.entries(answer);
  const parameters = request.parameters === 'repeated' ? undefined : request.parameters;
  if (parameters?.state !== undefined) fields.push(['state', parameters.state]);
  fields.push(['iss', issuerOf(gateway)]);
  if (parameters?.response_mode === 'form_post') {
    return sendFormPost(gateway, reply, request.redirectUri, fields);
  }
  const url = new URL(request.redirectUri);
  for (const [name, value] of fields) url.searchParams.append(name, value);
  return reply.redirect(url.href, status);
}

/**
 * Answers the client a refusal of the registry (RFC 6749 §4.1.2.1), audited
 * as a failed `oidc_code` with the client and, when signed in, the user.
 */
export async function refuseToClient(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  matched: MatchedRequest,
  code: ProviderRefusalCode,
  options: {
    /** The session, once read: the user refused. */
    readonly active?: ActiveSession | undefined;
    /** 303 after a form's POST (RFC 9700 §4.12). */
    readonly status?: 302 | 303;
    readonly detail?: Readonly<Record<string, boolean>>;
  } = {},
): Promise<FastifyReply> {
  const refusal = providerRefusal(code);
  const { active } = options;
  await auditRefusal(gateway, request, 'oidc_code', refusal.auditCode, {
    clientId: matched.client.clientId,
    userId: active?.user.userId,
    entryId: active?.session.entryId,
    ...(options.detail === undefined ? {} : { detail: options.detail }),
  });
  const answer = { error: refusal.error, error_description: refusal.description };
  return answerClient(gateway, reply, matched, answer, options.status);
}

/**
 * A page of ours for a coded error of the provider's browser endpoints,
 * audited as a failed event of `kind` with its code and reference; the
 * client named only when it is a registered one (the error's facts).
 */
export async function refusePage(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  error: SsogateError,
  kind: 'oidc_code' | 'sign_out',
  active?: ActiveSession,
): Promise<FastifyReply> {
  const { code, reference } = sendFailure(gateway, request, reply, error, { as: 'page' });
  const clientId = error.facts?.clientId;
  await auditRefusal(gateway, request, kind, code, {
    clientId: typeof clientId === 'string' ? clientId : undefined,
    userId: active?.user.userId,
    entryId: active?.session.entryId,
    reference,
  });
  return reply;
}

/** The page `403 oidc_user_refused`: the client's rules do not accept this sign-in. */
export function refuseUser(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  client: OidcClientRecord,
  active: ActiveSession,
): Promise<FastifyReply> {
  const why = `the client ${client.clientId} does not accept ${active.user.userId}`;
  const error = new SsogateError('oidc_user_refused', why, {
    facts: { clientId: client.clientId },
  });
  return refusePage(gateway, request, reply, error, 'oidc_code', active);
}

/**
 * Issues a code for the signed-in user and sends it back to the client:
 * stored as its hash only, for one minute and one use, with the request's
 * PKCE challenge, nonce and scope, and its grant with the acr values asked for; audited as `oidc_code` with the client,
 * the user and the entry, never the code.
 */
export async function issueCode(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  matched: MatchedRequest & { readonly parameters: Parameters },
  active: ActiveSession,
  status: 302 | 303 = 302,
): Promise<FastifyReply> {
  const { client, parameters } = matched;
  const now = gateway.clock();
  const code = Buffer.from(gateway.random(32)).toString('base64url');
  const scope = parameters.scope ?? 'openid';
  const grantId = Buffer.from(gateway.random(16)).toString('hex');
  // The grant lives by the gateway sign-in it comes from (sign-in-grants.ts);
  // its subject is the one the client is given, pairwise or not, so a logout
  // token names the user as the id_token did.
  const signInHash = signInHashOf(active.session);
  // The grant and its code in one transaction: neither is left without the
  // other, so no grant outlives a code that was never sent, nor sends its
  // client a logout token for a sign-in it never saw.
  const subject = subjectFor(gateway, client, active.user);
  // The acr values asked for stay with the grant: each id_token of it states
  // the first its sign-in's factor satisfies (token-endpoint.ts).
  const asked = acrRequestOf(parameters);
  const acrValues = asked === undefined || 'refused' in asked ? {} : { acrValues: asked.values };
  await gateway.storage.providerGrants.writeTogether(async (grants) => {
    await grants.addGrant({
      grantId,
      clientId: client.clientId,
      userRowId: active.user.id,
      subject,
      entryId: active.session.entryId,
      signInHash,
      sid: sidOf(signInHash),
      createdAt: now,
      ...acrValues,
    });
    await grants.addCode({
      codeHash: sha256Base64url(code),
      grantId,
      clientId: client.clientId,
      redirectUri: matched.redirectUri,
      codeChallenge: parameters.code_challenge ?? null,
      nonce: parameters.nonce ?? null,
      scope,
      userRowId: active.user.id,
      entryId: active.session.entryId,
      authTime: active.session.createdAt,
      expiresAt: now + codeLifetimeMs,
    });
  });
  await audit(gateway, request, {
    kind: 'oidc_code',
    outcome: 'success',
    entryId: active.session.entryId,
    userId: active.user.userId,
    detail: { clientId: client.clientId, scope },
  });
  return answerClient(gateway, reply, matched, { code }, status);
}
