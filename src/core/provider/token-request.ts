import { hash, timingSafeEqual } from 'node:crypto';
import type { ProviderRefusalCode } from './refusals.js';

/** A token request's form parameters, each given once. */
export type TokenParameters = Readonly<Record<string, string | undefined>>;

/** A token request refused before it reaches storage. */
interface Refused {
  readonly refused: ProviderRefusalCode;
}

/**
 * The form's parameters, wrapped so that no parameter's name is taken for
 * a refusal; a parameter given twice is refused (RFC 6749 §3.2).
 */
export function tokenParameters(body: unknown): { readonly parameters: TokenParameters } | Refused {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (Object.values(fields).some((value) => typeof value !== 'string')) {
    return { refused: 'provider_token_parameter_repeated' };
  }
  return { parameters: fields as TokenParameters };
}

/** The client id and secret a token request presents, before its client is looked up. */
interface ClientCredentials {
  readonly clientId: string;
  /** Undefined when none is presented: a public client's way (RFC 6749 §2.1). */
  readonly secret: string | undefined;
}

/** Client id and secret from HTTP Basic, each form-urlencoded first (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const unescape = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * The credentials of client_secret_basic, client_secret_post, or none (a
 * public client): one method only, naming one client.
 */
export function clientCredentials(
  authorization: string | undefined,
  parameters: TokenParameters,
): ClientCredentials | Refused {
  const refused = { refused: 'provider_client_credentials_invalid' } as const;
  const basic = basicCredentials(authorization);
  const postedId = parameters.client_id;
  const postedSecret = parameters.client_secret;
  if (basic !== undefined && postedSecret !== undefined) return refused;
  if (basic !== undefined && postedId !== undefined && postedId !== basic.id) return refused;
  const clientId = basic?.id ?? postedId;
  if (clientId === undefined) return refused;
  return { clientId, secret: basic?.secret ?? postedSecret };
}

/**
 * Whether the presented secret proves the client: a confidential client's
 * (stored as its SHA-256, base64url) compared in constant time; a public
 * client (no hash) presents none.
 */
export function clientSecretHolds(secretHash: string | null, secret: string | undefined): boolean {
  if (secretHash === null) return secret === undefined;
  if (secret === undefined) return false;
  const presented = Buffer.from(hash('sha256', secret, 'base64url'));
  const stored = Buffer.from(secretHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** What a token request asks for: a code's exchange, or a refresh (RFC 6749 §4.1.3, §6). */
export type GrantRequest =
  | {
      readonly grantType: 'authorization_code';
      readonly code: string;
      readonly redirectUri: string | undefined;
      readonly codeVerifier: string | undefined;
    }
  | { readonly grantType: 'refresh_token'; readonly refreshToken: string };

/** The grant asked for, of a client that has refresh tokens or not. */
export function grantRequest(
  parameters: TokenParameters,
  refreshTokens: boolean,
): GrantRequest | Refused {
  if (parameters.grant_type === 'refresh_token') {
    if (!refreshTokens) return { refused: 'provider_refresh_not_allowed' };
    const refreshToken = parameters.refresh_token;
    if (refreshToken === undefined) return { refused: 'provider_refresh_token_missing' };
    return { grantType: 'refresh_token', refreshToken };
  }
  if (parameters.grant_type !== 'authorization_code') {
    return { refused: 'provider_unsupported_grant_type' };
  }
  const code = parameters.code;
  if (code === undefined) return { refused: 'provider_code_missing' };
  return {
    grantType: 'authorization_code',
    code,
    redirectUri: parameters.redirect_uri,
    codeVerifier: parameters.code_verifier,
  };
}

/** A PKCE code verifier (RFC 7636 §4.1). */
const codeVerifierForm = /^[A-Za-z0-9._~-]{43,128}$/;

/** Whether the verifier proves the code's PKCE challenge (RFC 7636 §4.6), or neither is there. */
function pkceHolds(codeChallenge: string | null, verifier: string | undefined): boolean {
  if (codeChallenge === null) return verifier === undefined;
  return (
    verifier !== undefined &&
    codeVerifierForm.test(verifier) &&
    hash('sha256', verifier, 'base64url') === codeChallenge
  );
}

/**
 * What is wrong with a redeemed code's exchange: the redirect URI must be
 * the one the code was sent to (RFC 6749 §4.1.3), the verifier must prove
 * its challenge; undefined when both hold.
 */
export function codeExchangeRefusal(
  code: { readonly redirectUri: string; readonly codeChallenge: string | null },
  request: { readonly redirectUri: string | undefined; readonly codeVerifier: string | undefined },
): ProviderRefusalCode | undefined {
  if (request.redirectUri !== code.redirectUri) return 'provider_code_redirect_uri';
  if (!pkceHolds(code.codeChallenge, request.codeVerifier)) return 'provider_code_verifier_wrong';
  return undefined;
}
