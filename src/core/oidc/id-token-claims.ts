import { SsogateError } from '../errors/ssogate-error.js';
import type { ErrorCode } from '../errors/registry.js';

export type Claims = Readonly<Record<string, unknown>>;

interface IdTokenExpectations {
  readonly issuer: string;
  /** The entry's appid: the client the token must be issued to. */
  readonly clientId: string;
  /** The nonce stored with the pending sign-in and sent in the authorization request. */
  readonly nonce: string;
  /** Milliseconds since the epoch. */
  readonly now: number;
  readonly clockSkewSeconds: number;
}

function refuse(code: ErrorCode, message: string): SsogateError {
  return new SsogateError(code, message);
}

/**
 * The checks of an id_token's claims once its signature held (OpenID Connect
 * Core §3.1.3.7, items 2 to 11 that apply to the code flow). Each refusal has
 * its own code; no message quotes the token.
 */
export function checkIdTokenClaims(claims: Claims, expected: IdTokenExpectations): void {
  checkIssuerAndAudience(claims, expected, 'id_token');
  const now = Math.floor(expected.now / 1000);
  const skew = expected.clockSkewSeconds;
  if (typeof claims.exp !== 'number') throw refuse('id_token_expired', 'the id_token has no exp');
  if (claims.exp + skew <= now) throw refuse('id_token_expired', 'the id_token has expired');
  if (typeof claims.iat !== 'number' || claims.iat - skew > now) {
    throw refuse('id_token_issued_at', 'the id_token has no iat, or one in the future');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw refuse('id_token_claims', 'the id_token has no sub');
  }
  // Core §3.1.3.7 item 11 and §15.5.2: the nonce binds the token to this sign-in.
  if (claims.nonce !== expected.nonce) {
    throw refuse('id_token_nonce', 'the id_token nonce is not the one this sign-in sent');
  }
}

/**
 * `iss` must be the issuer, `aud` must hold the client, and a token for
 * several audiences must name the client in `azp` (Core §3.1.3.7 items 2-5;
 * Back-Channel Logout §2.6 asks the same of a logout token).
 */
export function checkIssuerAndAudience(
  claims: Claims,
  expected: Pick<IdTokenExpectations, 'issuer' | 'clientId'>,
  what: 'id_token' | 'logout_token',
): void {
  const prefix = what === 'id_token' ? 'id_token' : 'logout_token';
  if (claims.iss !== expected.issuer) {
    throw refuse(
      what === 'id_token' ? 'id_token_issuer' : 'logout_token_invalid',
      `the ${prefix} was issued by ${JSON.stringify(claims.iss ?? null)}, not ${JSON.stringify(expected.issuer)}`,
    );
  }
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : claims.aud;
  const audienceCode = what === 'id_token' ? 'id_token_audience' : 'logout_token_invalid';
  if (!Array.isArray(audiences) || !audiences.includes(expected.clientId)) {
    throw refuse(audienceCode, `the ${prefix} is not issued to this client`);
  }
  if (audiences.length > 1 && claims.azp !== expected.clientId) {
    throw refuse(audienceCode, `the ${prefix} has several audiences and azp is not this client`);
  }
  if (claims.azp !== undefined && claims.azp !== expected.clientId) {
    throw refuse(audienceCode, `the ${prefix} azp is another client`);
  }
}
