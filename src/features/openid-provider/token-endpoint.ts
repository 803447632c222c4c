import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { OidcCodeRecord, UserRecord } from '../../foundation/storage/types.js';
import { clientKey } from '../rate-limit/client-key.js';
import { authenticatedClient } from './client-authentication.js';
import { issuerOf } from './endpoints.js';
import { tokenLifetimeMs } from './lifetimes.js';
import { oauthError } from './oauth-answers.js';
import { signJwt } from './signing-keys.js';

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

/** The user's claims, for the id_token and userinfo alike. */
export function userClaims(user: UserRecord): Record<string, unknown> {
  return {
    sub: user.userId,
    name: user.userName ?? user.userId,
    ...(user.email === null ? {} : { email: user.email }),
    groups: [...user.groups],
  };
}

/**
 * The token endpoint (OpenID Connect Core §3.1.3): authorization_code only.
 * The code is redeemed at most once; presented again, what it was exchanged
 * for is revoked (RFC 6749 §4.1.2). The access token is opaque, stored as
 * its hash, so revoking it holds at once on every instance.
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
  if (body.grant_type !== 'authorization_code') {
    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code',
    );
  }
  if (typeof body.code !== 'string') return oauthError(reply, 400, 'invalid_request', 'no code');
  const grants = gateway.storage.oidcGrants;
  const redemption = await grants.redeemCode(sha256Base64url(body.code), client.clientId, now);
  if (redemption.outcome === 'replayed') {
    const revoked = await grants.revokeGrant(redemption.code.grantId);
    request.log.warn(
      { code: 'oidc_code_replayed', clientId: client.clientId, tokensRevoked: revoked },
      'an authorization code was presented again; what it was exchanged for is revoked',
    );
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
  const user = await gateway.storage.users.get(code.userRowId);
  if (user?.enabled !== true) {
    return oauthError(reply, 400, 'invalid_grant', 'the user is no longer enabled');
  }
  const accessToken = Buffer.from(gateway.random(32)).toString('base64url');
  await grants.addAccessToken({
    tokenHash: sha256Base64url(accessToken),
    grantId: code.grantId,
    clientId: client.clientId,
    userRowId: user.id,
    scope: code.scope,
    expiresAt: now + tokenLifetimeMs,
  });
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const idToken = await signJwt(gateway.storage, now, {
    iss: issuerOf(gateway),
    aud: client.clientId,
    azp: client.clientId,
    iat: seconds(now),
    exp: seconds(now + tokenLifetimeMs),
    auth_time: seconds(code.authTime),
    ...(code.nonce === null ? {} : { nonce: code.nonce }),
    acr: code.entryId ?? 'local',
    ...userClaims(user),
  });
  return reply
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: seconds(tokenLifetimeMs),
      id_token: idToken,
      scope: code.scope,
    });
}
