import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from './provider-gateway.js';
import type { SessionFactor, UserRecord } from '../../foundation/storage/types.js';
import type { OidcClientRecord, OidcCodeRecord, ProviderGrantStore } from './storage/types.js';
import { clientKey } from '../rate-limit/client-key.js';
import type { GrantRequest, ProviderRefusalCode } from '../../core/index.js';
import {
  acrClaim,
  codeExchangeRefusal,
  grantRequest,
  providerRefusal,
  tokenParameters,
} from '../../core/index.js';
import { authenticatedClient } from './client-authentication.js';
import { clientAcceptsUser } from './client-rules.js';
import { issuerOf } from './endpoints.js';
import { refreshTokenLifetimeMs, tokenLifetimeMs } from './lifetimes.js';
import { auditRefusal, oauthError } from './oauth-answers.js';
import { liveGrant } from './sign-in-grants.js';
import { signJwt } from './signing-keys.js';
import { subjectFor } from './subjects.js';

/** Token requests per client address per minute: plenty for applications, little for guessing. */
const tokenRequestsPerMinute = 120;

/** Who a refused token request is known to come from, and what it asked for. */
interface TokenRefusalFacts {
  readonly clientId?: string | undefined;
  readonly userId?: string | null;
  readonly entryId?: string | null;
  readonly grantType?: string | undefined;
}

/**
 * Refuses a token request with the registry's answer for `code`, audited
 * as a failed `oidc_token` with the client and the grant type, when known;
 * unless `audited` is false.
 */
async function refuse(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  code: ProviderRefusalCode,
  facts: TokenRefusalFacts = {},
  audited = true,
): Promise<FastifyReply> {
  const refusal = providerRefusal(code);
  if (audited) {
    await auditRefusal(gateway, request, 'oidc_token', refusal.auditCode, {
      clientId: facts.clientId,
      userId: facts.userId,
      entryId: facts.entryId,
      ...(facts.grantType === undefined ? {} : { detail: { grantType: facts.grantType } }),
    });
  }
  return oauthError(reply, refusal);
}

/** The user's claims as the client is given them, for the id_token and userinfo alike. */
export function userClaims(
  gateway: Gateway,
  client: OidcClientRecord,
  user: UserRecord,
): Record<string, unknown> {
  // Without a display name, a public client is named the user by their id,
  // as its `sub`; a pairwise client gets no name rather than the id its
  // pairwise `sub` keeps from it (OpenID Connect Core §8.1).
  const name = user.userName ?? (client.subjectType === 'public' ? user.userId : undefined);
  return {
    sub: subjectFor(gateway, client, user),
    ...(name === undefined ? {} : { name }),
    ...(user.email === null ? {} : { email: user.email }),
    groups: [...user.groups],
  };
}

/**
 * The token endpoint (OpenID Connect Core §3.1.3): authorization_code only.
 * The code is redeemed at most once; presented again, its grant is revoked
 * for good, with what it was exchanged for (RFC 6749 §4.1.2). The access
 * token is opaque, stored as its hash, so revoking it holds at once on
 * every instance.
 */
export async function exchangeCode(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const now = gateway.clock();
  const hits = await gateway.storage.rateLimits.hit(
    `oidc-token:${clientKey(request.ip)}`,
    now,
    60_000,
  );
  if (hits.count > tokenRequestsPerMinute) {
    void reply.header('retry-after', String(Math.ceil((hits.endsAt - now) / 1000)));
    // Audited once a window per address, for its first request refused: a
    // flood past the limit would otherwise write an event a request.
    const first = hits.count === tokenRequestsPerMinute + 1;
    return refuse(gateway, request, reply, 'provider_token_rate_limited', {}, first);
  }
  const form = tokenParameters(request.body);
  if ('refused' in form) return refuse(gateway, request, reply, form.refused);
  const { parameters } = form;
  // Audited only as one of the two served: the form's value is the caller's, of any length.
  const grantType = ['authorization_code', 'refresh_token'].includes(parameters.grant_type ?? '')
    ? parameters.grant_type
    : undefined;
  const authenticated = await authenticatedClient(
    gateway,
    request.headers.authorization,
    parameters,
  );
  if ('refused' in authenticated) {
    if (request.headers.authorization !== undefined) {
      void reply.header('www-authenticate', 'Basic realm="ssogate"');
    }
    const { clientId } = authenticated;
    return refuse(gateway, request, reply, authenticated.refused, { clientId, grantType });
  }
  const { client } = authenticated;
  const asked = grantRequest(parameters, client.refreshTokens);
  if ('refused' in asked) {
    return refuse(gateway, request, reply, asked.refused, { clientId: client.clientId, grantType });
  }
  if (asked.grantType === 'refresh_token') {
    return refresh(gateway, request, reply, client, asked.refreshToken);
  }
  return exchange(gateway, request, reply, client, asked);
}

/** The authorization code grant (RFC 6749 §4.1.3), of a client authenticated. */
async function exchange(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  client: OidcClientRecord,
  asked: Extract<GrantRequest, { grantType: 'authorization_code' }>,
): Promise<FastifyReply> {
  const facts = { clientId: client.clientId, grantType: asked.grantType };
  const codeHash = sha256Base64url(asked.code);
  const found = await gateway.storage.providerGrants.findCode(
    codeHash,
    client.clientId,
    gateway.clock(),
  );
  if (found.outcome === 'replayed') {
    const { grantId } = found.code;
    return refuseReplayed(gateway, request, reply, { grantId, what: 'code', facts });
  }
  if (found.outcome !== 'unused') {
    return refuse(gateway, request, reply, 'provider_code_invalid', facts);
  }
  const { code } = found;
  const presented: Presented = {
    grantId: code.grantId,
    what: 'code',
    facts,
    redeem: (grants, now) => grants.redeemCode(codeHash, client.clientId, now),
  };
  const codeFacts = { ...facts, entryId: code.entryId };
  const problem = codeExchangeRefusal(code, asked);
  if (problem !== undefined) {
    return refuseSpent(gateway, request, reply, presented, problem, codeFacts);
  }
  const signedIn = await liveGrant(gateway, code.grantId);
  if (signedIn === undefined) {
    return refuseSpent(
      gateway,
      request,
      reply,
      presented,
      'provider_grant_sign_in_ended',
      codeFacts,
    );
  }
  return issueTokens(gateway, request, reply, client, presented, {
    ...code,
    sid: signedIn.sid,
    factor: signedIn.factor,
    acrValues: signedIn.acrValues,
    exchanged: 'authorization_code',
  });
}

/** What tokens are issued for: a code, or a refresh token, of a sign-in still on. */
type Grant = Pick<OidcCodeRecord, 'grantId' | 'userRowId' | 'scope' | 'entryId' | 'authTime'> & {
  readonly nonce?: string | null;
  /** The grant type presented, for the audit trail. */
  readonly exchanged: 'authorization_code' | 'refresh_token';
  /** The gateway sign-in's `sid` (sign-in-grants.ts). */
  readonly sid: string;
  /** The sign-in's second factor, if it holds one now (sign-in-grants.ts liveGrant). */
  readonly factor?: SessionFactor | undefined;
  /** The acr values the authorization request asked for (OidcGrantRecord). */
  readonly acrValues?: readonly string[] | undefined;
};

/**
 * A code or refresh token presented and found unused, not yet used: it is
 * redeemed in the transaction that adds the tokens it is exchanged for
 * (redeemWithTokens), or alone when the request is refused (refuseSpent).
 */
interface Presented {
  readonly grantId: string;
  readonly what: 'code' | 'refresh token';
  /** The request's client and grant type, for the audit trail of a replay. */
  readonly facts: { readonly clientId: string; readonly grantType: string };
  /** Its redemption (ProviderGrantStore.redeemCode or redeemRefreshToken), through `grants`. */
  redeem(
    grants: ProviderGrantStore,
    now: number,
  ): Promise<{ readonly outcome: 'redeemed' | 'replayed' | 'unknown' }>;
}

/** The refusals of a code or refresh token found used, or unknown, when it is redeemed. */
const redemptionRefusals = {
  code: { replayed: 'provider_code_reused', unknown: 'provider_code_invalid' },
  'refresh token': {
    replayed: 'provider_refresh_token_reused',
    unknown: 'provider_refresh_token_invalid',
  },
} as const satisfies Record<Presented['what'], Record<'replayed' | 'unknown', ProviderRefusalCode>>;

/**
 * Refuses what was presented, and uses it all the same: a code or refresh
 * token is presented once, whatever came of it. One that another request
 * used meanwhile makes this one the replay (RFC 6749 §4.1.2), answered as
 * such.
 */
async function refuseSpent(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  presented: Presented,
  code: ProviderRefusalCode,
  facts: TokenRefusalFacts,
): Promise<FastifyReply> {
  const spent = await presented.redeem(gateway.storage.providerGrants, gateway.clock());
  if (spent.outcome === 'replayed') {
    return refuseReplayed(gateway, request, reply, presented);
  }
  return refuse(gateway, request, reply, code, facts);
}

/** Revokes the grant of what was presented again, and refuses it. */
async function refuseReplayed(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  presented: Pick<Presented, 'grantId' | 'what' | 'facts'>,
): Promise<FastifyReply> {
  const { clientId } = presented.facts;
  await revokeReplayed(gateway, request, presented.grantId, clientId, presented.what);
  const code = redemptionRefusals[presented.what].replayed;
  return refuse(gateway, request, reply, code, presented.facts);
}

async function revokeReplayed(
  gateway: Gateway,
  request: FastifyRequest,
  grantId: string,
  clientId: string,
  what: 'code' | 'refresh token',
): Promise<void> {
  const revoked = await gateway.storage.providerGrants.revokeGrant(grantId, gateway.clock());
  request.log.warn(
    { code: 'oidc_grant_replayed', clientId, tokensRevoked: revoked },
    `a used ${what} was presented again; what it was exchanged for is revoked`,
  );
}

/** Thrown inside redeemWithTokens' transaction to undo it: what was presented was not redeemed. */
class NotRedeemed extends Error {
  constructor(readonly outcome: 'replayed' | 'unknown') {
    super(`not redeemed: ${outcome}`);
  }
}

/**
 * Redeems what was presented and adds the tokens it is exchanged for, in
 * one transaction (ProviderGrantStore.writeTogether): should either fail,
 * neither is written, and the code or refresh token stays unused for the
 * client's retry rather than seen as a replay of it. The grant's row is
 * taken first (addTokens), as a revocation takes it before the tokens'
 * rows, so that on PostgreSQL neither waits on the other in turn. Resolves
 * `issued`; `revoked` (the grant was, and it is redeemed, adding nothing);
 * or, undoing the whole, what the redemption found instead.
 */
async function redeemWithTokens(
  grants: ProviderGrantStore,
  presented: Presented,
  tokens: Parameters<ProviderGrantStore['addTokens']>[1],
  now: number,
): Promise<'issued' | 'revoked' | 'replayed' | 'unknown'> {
  try {
    return await grants.writeTogether(async (unit) => {
      const added = await unit.addTokens(presented.grantId, tokens, now);
      const { outcome } = await presented.redeem(unit, now);
      if (outcome !== 'redeemed') throw new NotRedeemed(outcome);
      return added ? 'issued' : 'revoked';
    });
  } catch (error) {
    if (error instanceof NotRedeemed) return error.outcome;
    throw error;
  }
}

/**
 * The refresh token grant (RFC 6749 §6), for clients that have refresh
 * tokens: each is used once and replaced by a new one; one presented again
 * revokes the whole grant, as the OAuth 2.0 Security BCP (RFC 9700 §4.14.2)
 * advises for rotation. None outlives the gateway sign-in it came from.
 */
async function refresh(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  client: OidcClientRecord,
  refreshToken: string,
): Promise<FastifyReply> {
  const facts = { clientId: client.clientId, grantType: 'refresh_token' };
  const tokenHash = sha256Base64url(refreshToken);
  const found = await gateway.storage.providerGrants.findRefreshToken(
    tokenHash,
    client.clientId,
    gateway.clock(),
  );
  if (found.outcome === 'replayed') {
    const { grantId } = found.token;
    return refuseReplayed(gateway, request, reply, { grantId, what: 'refresh token', facts });
  }
  if (found.outcome !== 'unused') {
    return refuse(gateway, request, reply, 'provider_refresh_token_invalid', facts);
  }
  const { token } = found;
  const presented: Presented = {
    grantId: token.grantId,
    what: 'refresh token',
    facts,
    redeem: (grants, now) => grants.redeemRefreshToken(tokenHash, client.clientId, now),
  };
  const signedIn = await liveGrant(gateway, token.grantId);
  if (signedIn === undefined) {
    const { entryId } = token;
    return refuseSpent(gateway, request, reply, presented, 'provider_grant_sign_in_ended', {
      ...facts,
      entryId,
    });
  }
  return issueTokens(gateway, request, reply, client, presented, {
    ...token,
    sid: signedIn.sid,
    factor: signedIn.factor,
    acrValues: signedIn.acrValues,
    exchanged: 'refresh_token',
  });
}

/**
 * An access token, an id_token and, for a client that has them, a new
 * refresh token, for what was presented, redeemed with them; audited as
 * `oidc_token` with the client, the user, the entry and the grant type,
 * never a token or code.
 */
async function issueTokens(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  client: OidcClientRecord,
  presented: Presented,
  grant: Grant,
): Promise<FastifyReply> {
  const now = gateway.clock();
  const user = await gateway.storage.users.get(grant.userRowId);
  const facts = { clientId: client.clientId, grantType: grant.exchanged, entryId: grant.entryId };
  if (user?.enabled !== true) {
    const userId = user?.userId ?? null;
    return refuseSpent(gateway, request, reply, presented, 'provider_grant_user_disabled', {
      ...facts,
      userId,
    });
  }
  // The client's rules as they are now, not as they were when the grant began;
  // audited with the code oidc_user_refused (the registry's auditedAs).
  if (!clientAcceptsUser(client, grant.entryId, user)) {
    const userId = user.userId;
    return refuseSpent(gateway, request, reply, presented, 'provider_grant_user_refused', {
      ...facts,
      userId,
    });
  }
  const newToken = () => Buffer.from(gateway.random(32)).toString('base64url');
  const accessToken = newToken();
  const refreshToken = client.refreshTokens ? newToken() : undefined;
  const issuedTo = { clientId: client.clientId, userRowId: user.id, scope: grant.scope };
  const issued = await redeemWithTokens(
    gateway.storage.providerGrants,
    presented,
    {
      access: {
        ...issuedTo,
        tokenHash: sha256Base64url(accessToken),
        expiresAt: now + tokenLifetimeMs,
      },
      ...(refreshToken === undefined
        ? {}
        : {
            refresh: {
              ...issuedTo,
              tokenHash: sha256Base64url(refreshToken),
              entryId: grant.entryId,
              authTime: grant.authTime,
              expiresAt: now + refreshTokenLifetimeMs,
            },
          }),
    },
    now,
  );
  // Another request redeemed it since it was found: this one is the replay.
  if (issued === 'replayed') return refuseReplayed(gateway, request, reply, presented);
  if (issued === 'unknown') {
    const code = redemptionRefusals[presented.what].unknown;
    return refuse(gateway, request, reply, code, facts);
  }
  // RFC 9700 §4.14.2: a replay seen while this request was under way
  // revoked the grant; it issues nothing more.
  if (issued === 'revoked') {
    const userId = user.userId;
    return refuse(gateway, request, reply, 'provider_grant_revoked', { ...facts, userId });
  }
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const idToken = await signJwt(gateway.storage, now, {
    iss: issuerOf(gateway),
    aud: client.clientId,
    azp: client.clientId,
    iat: seconds(now),
    exp: seconds(now + tokenLifetimeMs),
    auth_time: seconds(grant.authTime),
    ...(grant.nonce === null || grant.nonce === undefined ? {} : { nonce: grant.nonce }),
    // The entry in a claim of its own: `acr` is an assurance level (Core §2),
    // not an entry id; it is stated by methodClaims, from the second factor.
    ssogate_entry: grant.entryId ?? 'local',
    sid: grant.sid,
    ...methodClaims(grant),
    ...userClaims(gateway, client, user),
  });
  await audit(gateway, request, {
    kind: 'oidc_token',
    outcome: 'success',
    entryId: grant.entryId,
    userId: user.userId,
    detail: {
      clientId: client.clientId,
      grantType: grant.exchanged,
      scope: grant.scope,
      refreshToken: refreshToken !== undefined,
    },
  });
  return reply
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: seconds(tokenLifetimeMs),
      id_token: idToken,
      ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
      scope: grant.scope,
    });
}

/**
 * How the user authenticated (RFC 8176 `amr`), and with what assurance
 * (OpenID Connect Core §2 `acr`, docs/openid-provider.md#assurance-acr):
 * a local sign-in is a
 * password (`pwd`), a second factor a one-time code (`otp`, a recovery code
 * too) or a passkey or security key (`hwk`, proof of possession of a key
 * held by an authenticator, RFC 8176 §2; `user`, mere presence, would say
 * less than the user verification the gateway requires), and both together
 * `mfa`; an entry's own methods are its provider's
 * to say, so a sign-in through one without a second factor names none. With
 * a second factor, `ssogate_factor_time` is when it was given (seconds, as
 * `auth_time`), and `acr` the first value the authorization request asked
 * for that it satisfies, else the strongest it does: both from the factor
 * the sign-in holds now, so the two always agree.
 */
function methodClaims(grant: Grant): Record<string, unknown> {
  const local = grant.entryId === null;
  const { factor } = grant;
  if (factor === undefined) return local ? { amr: ['pwd'] } : {};
  const second = factor.method === 'webauthn' ? 'hwk' : 'otp';
  return {
    amr: local ? ['pwd', second, 'mfa'] : [second, 'mfa'],
    ssogate_factor_time: Math.floor(factor.at / 1000),
    acr: acrClaim(grant.acrValues ?? [], factor.method),
  };
}
