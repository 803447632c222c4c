import type {
  Claims,
  CompiledOAuth2Entry,
  JsonValue,
  ThirdPartyResponse,
} from '../../core/index.js';
import { SsogateError, checkIdTokenClaims, parseUntrustedJson } from '../../core/index.js';
import type { ProviderMetadata } from './provider-metadata.js';
import { verifyProviderJwt } from './verify-jwt.js';

/** The sign-in's id_token once verified: its text and claims. */
export interface VerifiedIdToken {
  readonly token: string;
  readonly claims: Claims;
  /** For JWT_CLAIMS in the entry's expressions. */
  readonly asVerified: ReadonlyMap<string, JsonValue>;
  /** The same response's refresh_token (RFC 6749 §5.1), read from the one parse of its body. */
  readonly refreshToken: string | undefined;
}

/**
 * Reads the id_token from a successful token response and verifies it
 * (OpenID Connect Core §3.1.3.7): the signature with the provider's keys,
 * then issuer, audience, azp, expiry, issue time and the pending sign-in's
 * nonce. Each refusal has its own code (docs/errors.md#openid-connect).
 */
export async function verifyIdTokenResponse(
  metadata: ProviderMetadata,
  entry: CompiledOAuth2Entry & { readonly oidc: NonNullable<CompiledOAuth2Entry['oidc']> },
  response: ThirdPartyResponse,
  expected: {
    readonly nonce: string | null;
    readonly now: number;
    readonly secrets: readonly string[];
  },
): Promise<VerifiedIdToken> {
  let body: JsonValue;
  try {
    body = parseUntrustedJson(response.body, { secrets: expected.secrets });
  } catch {
    throw new SsogateError('id_token_missing', 'the token response is not JSON');
  }
  const token = ownField(body, 'id_token');
  if (typeof token !== 'string' || token === '') {
    throw new SsogateError('id_token_missing', 'the token response carries no id_token');
  }
  const claims = await verifyProviderJwt(
    metadata,
    entry.oidc.discovery,
    token,
    'id_token_invalid_signature',
  );
  // Checked after the signature, where checkIdTokenClaims checks the nonce, so
  // the checks run in one order (a test sign-in's trace lists them so).
  if (expected.nonce === null) {
    // A pending sign-in stored before the entry became an OpenID Connect one.
    throw new SsogateError('id_token_nonce', 'this sign-in sent no nonce');
  }
  checkIdTokenClaims(claims, {
    issuer: entry.oidc.issuer,
    clientId: entry.appid ?? '',
    nonce: expected.nonce,
    now: expected.now,
    clockSkewSeconds: entry.oidc.clockSkewSeconds,
  });
  const refreshToken = ownField(body, 'refresh_token');
  return {
    token,
    claims,
    asVerified: new Map([[token, claims as JsonValue]]),
    refreshToken:
      typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : undefined,
  };
}

/** A top-level field of a JSON object, its own, never an inherited one. */
function ownField(body: JsonValue, name: string): JsonValue | undefined {
  return body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.hasOwn(body, name)
    ? (body as Record<string, JsonValue>)[name]
    : undefined;
}
