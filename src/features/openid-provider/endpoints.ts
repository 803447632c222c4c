import { supportedAcrValues } from '../../core/index.js';
import type { Gateway } from './provider-gateway.js';
import { discoveryPath } from '../../foundation/http/well-known.js';

/** The provider's endpoints, under /_sso on the public URL; the discovery document names each. */
export const providerPaths = {
  discovery: discoveryPath,
  authorize: '/_sso/oidc/authorize',
  consent: '/_sso/oidc/consent',
  token: '/_sso/oidc/token',
  userinfo: '/_sso/oidc/userinfo',
  jwks: '/_sso/oidc/jwks',
  endSession: '/_sso/oidc/logout',
} as const;

/**
 * The path and query of an endpoint's GET request with these parameters: a
 * POSTed request is answered with it (303) when the browser's SameSite=Lax
 * session cookie did not come with the POST, as it does not with a
 * cross-site POST, and does with the GET of a top-level navigation.
 */
export function getRequestPath(
  path: string,
  parameters: Readonly<Record<string, string | undefined>>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) query.append(name, value);
  }
  return `${path}?${query.toString()}`;
}

/** The issuer: the public URL as configured, without a trailing slash (OpenID Connect Discovery §3). */
export function issuerOf(gateway: Gateway): string {
  return gateway.config.publicUrl.replace(/\/+$/, '');
}

/** The claims an id_token and userinfo carry, for the discovery document. */
const claims = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'acr',
  'amr',
  'ssogate_factor_time',
  'nonce',
  'ssogate_entry',
  'sid',
  'name',
  'email',
  'groups',
];

/** The discovery document (OpenID Connect Discovery 1.0 §3). */
export function discoveryDocument(gateway: Gateway): Record<string, unknown> {
  const issuer = issuerOf(gateway);
  return {
    issuer,
    authorization_endpoint: `${issuer}${providerPaths.authorize}`,
    token_endpoint: `${issuer}${providerPaths.token}`,
    userinfo_endpoint: `${issuer}${providerPaths.userinfo}`,
    jwks_uri: `${issuer}${providerPaths.jwks}`,
    end_session_endpoint: `${issuer}${providerPaths.endSession}`,
    scopes_supported: ['openid', 'profile', 'email', 'groups'],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'form_post'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    subject_types_supported: ['public', 'pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: claims,
    prompt_values_supported: ['none', 'login', 'consent'],
    // docs/openid-provider.md#assurance-acr: asked for by acr_values, or as
    // the id_token's essential acr in `claims`, of which only that is read.
    acr_values_supported: supportedAcrValues,
    claims_parameter_supported: true,
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    // OpenID Connect Back-Channel Logout 1.0 §2.1: logout tokens name the sign-in by `sid`.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // OpenID Connect Front-Channel Logout 1.0 §3: the signed-out page loads the clients' pages.
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
  };
}
