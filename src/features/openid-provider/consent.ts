import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError, isRandomToken, randomToken } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { fromAnotherSite } from '../../foundation/http/fetch-metadata.js';
import type { Gateway } from './provider-gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendPage } from '../../foundation/http/respond.js';
import { consentPage } from '../../foundation/pages/index.js';
import { securityHeaders } from '../../foundation/web/index.js';
import { sessionOf } from '../sessions/request-session.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { shownUser } from '../sessions/sign-out-form.js';
import type { MatchedRequest } from './authorization-request.js';
import {
  issueCode,
  matchedRequest,
  refusePage,
  refuseToClient,
  refuseUser,
} from './authorization-request.js';
import { judgeAcr } from './acr-step-up.js';
import { clientAccepts } from './client-rules.js';
import { providerPaths } from './endpoints.js';
import { consentLifetimeMs } from './lifetimes.js';

/**
 * The consent page of a client registered with `"consent": true`
 * (docs/openid-provider.md#consent), and for `prompt=consent`.
 *
 * The page's form carries a random 256-bit token. What it stands for is
 * kept as a pending sign-in (storage/types.ts PendingSignIn) keyed by the
 * token's hash, of a kind no sign-in or handoff key has: the authorization
 * request to answer, for ten minutes, bound to the gateway session that was
 * shown the page (so to this browser and this sign-in). Posted, the record
 * is consumed in one atomic step before any check, so a form is good once,
 * whoever posts it; a form of another browser, an expired or a replayed one
 * gets the page `400 oidc_consent_invalid`, and the client nothing. Deny
 * answers the client `access_denied` (RFC 6749 §4.1.2.1); Allow issues the
 * code.
 */

type Parameters = Readonly<Record<string, string | undefined>>;
type Answerable = MatchedRequest & { readonly parameters: Parameters };

/** The key of a consent form's record: the token's hash, of a kind of its own. */
function consentKey(token: string): string {
  return sha256Base64url(`consent:${token}`);
}

/** What binds a consent form to the gateway session it was shown in. */
function consentBinding(active: ActiveSession): string {
  return sha256Base64url(`consent:${active.session.idHash}`);
}

/** A scope as a set of words, in one order, to compare two. */
function scopeWords(scope: string): string {
  return [...new Set(scope.split(' ').filter((word) => word !== ''))].sort().join(' ');
}

/**
 * Whether the user is to be asked: always for `prompt=consent`; for a
 * client with `consent`, unless the user allowed it these scopes already and
 * it still holds a token of that grant (an access token, an hour; a refresh
 * token, thirty days): a consent is remembered as long as its grant lives.
 */
export async function consentNeeded(
  gateway: Gateway,
  request: Answerable,
  active: ActiveSession,
  prompted: boolean,
): Promise<boolean> {
  if (prompted) return true;
  if (!request.client.consent) return false;
  const asked = scopeWords(request.parameters.scope ?? 'openid');
  const held = await gateway.storage.providerGrants.liveScopes(
    request.client.clientId,
    active.user.id,
    gateway.clock(),
  );
  return !held.some((scope) => scopeWords(scope) === asked);
}

/**
 * Browsers apply CSP form-action to the redirects that follow a form post:
 * the consent form, whose POST redirects to the client, needs the client's
 * origin allowed, or Allow and Deny would stop at the gateway.
 */
function allowRedirectTo(gateway: Gateway, reply: FastifyReply, redirectUri: string): void {
  const { protocol, origin } = new URL(redirectUri);
  if (protocol !== 'https:' && protocol !== 'http:') return;
  const policy = securityHeaders({
    https: gateway.config.secureCookies,
    formActionOrigins: [origin],
  })['Content-Security-Policy'];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
}

/** Shows the consent page for an authorization request, `returnTo` its path and query. */
export async function askConsent(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  answerable: Answerable,
  active: ActiveSession,
  returnTo: string,
): Promise<FastifyReply> {
  const token = randomToken(gateway.random);
  const now = gateway.clock();
  await gateway.storage.pendingSignIns.save({
    stateHash: consentKey(token),
    entryId: answerable.client.clientId,
    returnTo,
    bindingHash: consentBinding(active),
    redirectUri: answerable.redirectUri,
    codeVerifier: null,
    createdAt: now,
    expiresAt: now + consentLifetimeMs,
  });
  allowRedirectTo(gateway, reply, answerable.redirectUri);
  return sendPage(
    reply,
    200,
    consentPage({
      application: answerable.client.name,
      user: shownUser(active.user),
      groups: active.user.groups,
      action: providerPaths.consent,
      formToken: token,
      page: pageContext(gateway, request),
    }),
  );
}

/** The query of a path as Fastify gives it: a value, or the values of a repeated name. */
function queryOf(path: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >;
  const search = new URL(path, 'http://gateway.invalid').searchParams;
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

/** POST /_sso/oidc/consent: the user's Allow or Deny. */
export async function decideConsent(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  void reply.header('cache-control', 'no-store');
  // The client is named once the form's record names it: it was a registered one.
  const fail = (why: string, clientId?: string, active?: ActiveSession) => {
    const facts = clientId === undefined ? {} : { facts: { clientId } };
    const error = new SsogateError('oidc_consent_invalid', why, facts);
    return refusePage(gateway, request, reply, error, 'oidc_code', active);
  };
  if (fromAnotherSite(request)) return fail('the consent was posted from another site');
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as {
    consent?: unknown;
    decision?: unknown;
  };
  const { consent: token, decision } = body;
  if (typeof token !== 'string' || !isRandomToken(token)) return fail('no consent form token');
  // Consumed before any other check: a form is good for one post, whoever sends it.
  const pending = await gateway.storage.pendingSignIns.consume(consentKey(token));
  if (pending === undefined || pending.handoff !== undefined) {
    return fail('the consent form is unknown or was used already');
  }
  const clientId = pending.entryId;
  if (pending.expiresAt <= gateway.clock()) return fail('the consent form expired', clientId);
  const active = await sessionOf(gateway, request);
  if (active === undefined || pending.bindingHash !== consentBinding(active)) {
    return fail('the consent form was shown to another browser or sign-in', clientId);
  }
  const matched = await matchedRequest(gateway, queryOf(pending.returnTo));
  if (
    matched instanceof SsogateError ||
    matched.parameters === 'repeated' ||
    matched.client.clientId !== pending.entryId
  ) {
    return fail('the authorization request no longer matches its client', clientId, active);
  }
  const answerable = { ...matched, parameters: matched.parameters };
  if (decision === 'deny') {
    return refuseToClient(gateway, request, reply, answerable, 'provider_access_denied', {
      active,
      status: 303,
      detail: { denied: true },
    });
  }
  if (decision !== 'allow') return fail('the decision is neither allow nor deny', clientId, active);
  if (!clientAccepts(matched.client, active)) {
    return refuseUser(gateway, request, reply, matched.client, active);
  }
  // The page was shown once the acr was satisfied; a factor given since in
  // another tab may satisfy less: the request starts again, step-up first.
  if (judgeAcr(gateway, clientId, answerable.parameters, active) !== 'satisfied') {
    return reply.redirect(pending.returnTo, 303);
  }
  return issueCode(gateway, request, reply, answerable, active, 303);
}
