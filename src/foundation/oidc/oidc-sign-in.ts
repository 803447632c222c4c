import type { Claims } from '../../core/index.js';

/** What an OpenID Connect sign-in leaves for its session: logout hint, re-validation, sid. */
export interface OidcSignIn {
  readonly idToken: string;
  readonly claims: Claims;
  /** The refresh token of the token response, when the provider gave one (RFC 6749 §5.1). */
  readonly refreshToken: string | undefined;
}
