import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from './provider-gateway.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import type { OidcClientRecord, OidcCodeRecord } from './storage/types.js';
import { clientKey } from '../rate-limit/client-key.js';
import { authenticatedClient } from './client-authentication.js';
import { clientAcceptsUser } from './client-rules.js';
import { issuerOf } from './endpoints.js';
import { refreshTokenLifetimeMs, tokenLifetimeMs } from './lifetimes.js';
import { oauthError } from './oauth-answers.js';
import { liveGrant } from './sign-in-grants.js';
import { signJwt } from './signing-keys.js';
import { subjectFor } from './subjects.js';

/** A PKCE code verifier (RFC 7636 §4.1). */
const codeVerifierForm = /^[A-Za-z0-9._~-]{43,128}$/;

/** Token requests per client address per minute: plenty for applications, little for guessing. */
const tokenRequestsPerMinute = 120;

/** Whether the verifier proves the code's PKCE challenge, or neither is there. */
function pkceHolds(code: OidcCodeRecord, verifier: unknown): boolean {
  if (code.codeChallenge === null) return verifier === undefined;
  return (
    typeof verifier === 'string' &&
    codeVerifierForm.test(verifier) &&
    sha256Base64url(verifier) === code.codeChallenge
  );
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
    return oauthError(reply, 429, 'invalid_request', 'too many token requests; try again later');
  }
  const body = (
    typeof request.body === 'object' && request.body !== null ? request.body : {}
  ) as Record<string, unknown>;
  if (Object.values(body).some((value) => typeof value !== 'string')) {
    return oauthError(reply, 400, 'invalid_request', 'a parameter is repeated');
  }
  const client = await authenticatedClient(gateway, request.headers.authorization, body);
  if (client === undefined) {
    if (request.headers.authorization !== undefined) {
      void reply.header('www-authenticate', 'Basic realm="ssogate"');
    }
    return oauthError(reply, 401, 'invalid_client', 'the client did not authenticate');
  }
  if (body.grant_type === 'refresh_token') return refresh(gateway, request, reply, client, body);
  if (body.grant_type !== 'authorization_code') {
    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token',
    );
  }
  if (typeof body.code !== 'string') return oauthError(reply, 400, 'invalid_request', 'no code');
  const grants = gateway.storage.providerGrants;
  const redemption = await grants.redeemCode(sha256Base64url(body.code), client.clientId, now);
  if (redemption.outcome === 'replayed') {
    await revokeReplayed(gateway, request, redemption.code.grantId, client.clientId, 'code');
  }
  if (redemption.outcome !== 'redeemed') {
    return oauthError(reply, 400, 'invalid_grant', 'the code is unknown, expired or used');
  }
  const { code } = redemption;
  if (body.redirect_uri !== code.redirectUri) {
    return oauthError(reply, 400, 'invalid_grant', 'the redirect_uri is not the one of the code');
  }
  if (!pkceHolds(code, body.code_verifier)) {
    return oauthError(reply, 400, 'invalid_grant', 'the code_verifier does not match');
  }
  const signedIn = await liveGrant(gateway, code.grantId);
  if (signedIn === undefined) return signInEnded(reply);
  return issueTokens(gateway, request, reply, client, {
    ...code,
    sid: signedIn.sid,
    exchanged: 'authorization_code',
  });
}

/** What tokens are issued for: a redeemed code, or a refresh token, of a sign-in still on. */
type Grant = Pick<OidcCodeRecord, 'grantId' | 'userRowId' | 'scope' | 'entryId' | 'authTime'> & {
  readonly nonce?: string | null;
  /** The grant type presented, for the audit trail. */
  readonly exchanged: 'authorization_code' | 'refresh_token';
  /** The gateway sign-in's `sid` (sign-in-grants.ts). */
  readonly sid: string;
};

/** A code or refresh token lives no longer than the gateway sign-in it came from. */
function signInEnded(reply: FastifyReply): FastifyReply {
  return oauthError(reply, 400, 'invalid_grant', 'the gateway sign-in of this grant has ended');
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
  body: Readonly<Record<string, unknown>>,
): Promise<FastifyReply> {
  if (!client.refreshTokens) {
    return oauthError(reply, 400, 'unauthorized_client', 'the client has no refresh tokens');
  }
  if (typeof body.refresh_token !== 'string') {
    return oauthError(reply, 400, 'invalid_request', 'no refresh_token');
  }
  const grants = gateway.storage.providerGrants;
  const redemption = await grants.redeemRefreshToken(
    sha256Base64url(body.refresh_token),
    client.clientId,
    gateway.clock(),
  );
  if (redemption.outcome === 'replayed') {
    await revokeReplayed(
      gateway,
      request,
      redemption.token.grantId,
      client.clientId,
      'refresh token',
    );
  }
  if (redemption.outcome !== 'redeemed') {
    return oauthError(reply, 400, 'invalid_grant', 'the refresh token is unknown, expired or used');
  }
  const signedIn = await liveGrant(gateway, redemption.token.grantId);
  if (signedIn === undefined) return signInEnded(reply);
  return issueTokens(gateway, request, reply, client, {
    ...redemption.token,
    sid: signedIn.sid,
    exchanged: 'refresh_token',
  });
}

/**
 * An access token, an id_token and, for a client that has them, a new
 * refresh token; audited as `oidc_token` with the client, the user, the
 * entry and the grant type, never a token or code.
 */
async function issueTokens(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  client: OidcClientRecord,
  grant: Grant,
): Promise<FastifyReply> {
  const now = gateway.clock();
  const grants = gateway.storage.providerGrants;
  const user = await gateway.storage.users.get(grant.userRowId);
  if (user?.enabled !== true) {
    return oauthError(reply, 400, 'invalid_grant', 'the user is no longer enabled');
  }
  // The client's rules as they are now, not as they were when the grant began.
  if (!clientAcceptsUser(client, grant.entryId, user)) {
    await audit(gateway, request, {
      kind: 'oidc_token',
      outcome: 'failure',
      entryId: grant.entryId,
      userId: user.userId,
      code: 'oidc_user_refused',
      detail: { clientId: client.clientId, grantType: grant.exchanged },
    });
    return oauthError(reply, 400, 'invalid_grant', 'the client no longer accepts this user');
  }
  const newToken = () => Buffer.from(gateway.random(32)).toString('base64url');
  const accessToken = newToken();
  const refreshToken = client.refreshTokens ? newToken() : undefined;
  const issuedTo = { clientId: client.clientId, userRowId: user.id, scope: grant.scope };
  const added = await grants.addTokens(
    grant.grantId,
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
  // RFC 9700 §4.14.2: a replay seen while this request was under way
  // revoked the grant; it issues nothing more.
  if (!added) return oauthError(reply, 400, 'invalid_grant', 'the grant has been revoked');
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const idToken = await signJwt(gateway.storage, now, {
    iss: issuerOf(gateway),
    aud: client.clientId,
    azp: client.clientId,
    iat: seconds(now),
    exp: seconds(now + tokenLifetimeMs),
    auth_time: seconds(grant.authTime),
    ...(grant.nonce === null || grant.nonce === undefined ? {} : { nonce: grant.nonce }),
    // The entry in a claim of its own: `acr` is an assurance level (Core §2), not an entry id.
    ssogate_entry: grant.entryId ?? 'local',
    sid: grant.sid,
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
