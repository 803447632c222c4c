import type { Claims } from '../../core/index.js';
import type { ThirdPartyResponse } from '../../core/index.js';

/** What an OpenID Connect sign-in leaves for its session: logout hint, re-validation, sid. */
export interface OidcSignIn {
  readonly idToken: string;
  readonly claims: Claims;
  /** The refresh token of the token response, when the provider gave one (RFC 6749 §5.1). */
  readonly refreshToken: string | undefined;
}

/** The token response's refresh_token, when it is a JSON text field. */
export function refreshTokenOf(response: ThirdPartyResponse): string | undefined {
  try {
    const body = JSON.parse(response.body) as unknown;
    if (body === null || typeof body !== 'object' || !Object.hasOwn(body, 'refresh_token')) {
      return undefined;
    }
    const token = (body as { refresh_token?: unknown }).refresh_token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}
