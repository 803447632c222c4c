import { SsogateError } from '../errors/ssogate-error.js';
import type { Claims } from './id-token-claims.js';
import { checkIssuerAndAudience } from './id-token-claims.js';

const backchannelLogoutEvent = 'http://schemas.openid.net/event/backchannel-logout';

/** Whom a verified logout token ends: the provider session (sid), the subject, or both. */
interface LogoutTarget {
  readonly sid: string | undefined;
  readonly subject: string | undefined;
  readonly jti: string;
  /** Seconds since the epoch after which the jti need not be remembered. */
  readonly rememberUntil: number;
}

function refuse(message: string): SsogateError {
  return new SsogateError('logout_token_invalid', message);
}

/**
 * The checks of a logout token's claims once its signature held (OpenID
 * Connect Back-Channel Logout 1.0 §2.6): issuer and audience as an
 * id_token's, a recent `iat`, the back-channel logout event, `sid` or `sub`,
 * no `nonce` (so an id_token can never pass as one), and a `jti` for the
 * caller to accept only once.
 */
export function checkLogoutTokenClaims(
  claims: Claims,
  expected: {
    readonly issuer: string;
    readonly clientId: string;
    readonly now: number;
    readonly clockSkewSeconds: number;
    /** How old a logout token may be, in seconds. */
    readonly maxAgeSeconds: number;
  },
): LogoutTarget {
  checkIssuerAndAudience(claims, expected, 'logout_token');
  const now = Math.floor(expected.now / 1000);
  const iat = claims.iat;
  if (
    typeof iat !== 'number' ||
    iat - expected.clockSkewSeconds > now ||
    iat + expected.maxAgeSeconds < now
  ) {
    throw refuse('the logout token has no iat, or one too old or in the future');
  }
  if (typeof claims.exp === 'number' && claims.exp + expected.clockSkewSeconds <= now) {
    throw refuse('the logout token has expired');
  }
  const events = claims.events;
  if (
    events === null ||
    typeof events !== 'object' ||
    Array.isArray(events) ||
    !Object.hasOwn(events, backchannelLogoutEvent) ||
    typeof (events as Record<string, unknown>)[backchannelLogoutEvent] !== 'object'
  ) {
    throw refuse('the logout token has no back-channel logout event');
  }
  if (Object.hasOwn(claims, 'nonce')) throw refuse('a logout token must not carry a nonce');
  const sid = typeof claims.sid === 'string' && claims.sid !== '' ? claims.sid : undefined;
  const subject = typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
  if (sid === undefined && subject === undefined)
    throw refuse('the logout token has neither sid nor sub');
  if (typeof claims.jti !== 'string' || claims.jti === '')
    throw refuse('the logout token has no jti');
  return {
    sid,
    subject,
    jti: claims.jti,
    rememberUntil: iat + expected.maxAgeSeconds + expected.clockSkewSeconds,
  };
}
