import { createHash } from 'node:crypto';
import type { ExampleUser } from './types.js';

/**
 * How one OpenID Provider lays out its endpoints, what it puts in its
 * id_tokens and user-info answers, and how it refuses a code, as its public
 * documentation describes them. Paths are under the example server's root;
 * the issuer is the server's URL followed by `issuerPath`.
 */
export interface OidcProfile {
  readonly name: string;
  readonly issuerPath: string;
  readonly authorizePath: string;
  readonly tokenPath: string;
  readonly userInfoPath: string;
  readonly jwksPath: string;
  readonly endSessionPath?: string;
  /** RFC 9207: the provider puts `iss` on its authorization responses. */
  readonly issParameter?: boolean;
  /** Claims of the id_token besides iss, aud, exp, iat and nonce. */
  idTokenClaims(user: ExampleUser, clientId: string, tenant: string): Record<string, unknown>;
  /** The user-info answer. */
  userInfo(user: ExampleUser, clientId: string): Record<string, unknown>;
  /** The answer to a code it does not know. */
  readonly invalidGrant: { readonly status: number; readonly body: Record<string, unknown> };
}

/** Values the emulation fills in where a real provider has the administrator's own. */
export const emulatedTenant = '9188040d-6c67-4c5b-b112-36a304b66dad';
export const emulatedRealm = 'example';
export const emulatedSlug = 'ssogate';

const standardClaims = (user: ExampleUser) => ({
  sub: user.userId,
  name: user.name,
  email: user.email,
  email_verified: true,
});

/** Keycloak's subjects are the user's UUID. */
function keycloakId(user: ExampleUser): string {
  const hex = createHash('sha256').update(`keycloak\n${user.userId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** authentik's default subject mode: a hash of the user's id. */
function hashedUserId(user: ExampleUser): string {
  return createHash('sha256').update(`authentik\n${user.userId}`).digest('hex');
}

const grantRefused = (description: string) => ({
  status: 400,
  body: { error: 'invalid_grant', error_description: description },
});

export const oidcProfiles: readonly OidcProfile[] = [
  {
    // https://accounts.google.com/.well-known/openid-configuration
    name: 'google',
    issuerPath: '/google',
    authorizePath: '/google/o/oauth2/v2/auth',
    tokenPath: '/google/token',
    userInfoPath: '/google/v1/userinfo',
    jwksPath: '/google/oauth2/v3/certs',
    idTokenClaims: (user, clientId) => ({
      ...standardClaims(user),
      sub: `1${Buffer.from(user.userId).toString('hex')}`,
      azp: clientId,
    }),
    userInfo: (user) => ({
      ...standardClaims(user),
      sub: `1${Buffer.from(user.userId).toString('hex')}`,
      given_name: user.name.split(' ')[0],
    }),
    invalidGrant: grantRefused('Bad Request'),
  },
  {
    // https://login.microsoftonline.com/{tenant}/v2.0/.well-known/openid-configuration
    name: 'microsoft-entra-id',
    issuerPath: `/entra/${emulatedTenant}/v2.0`,
    authorizePath: `/entra/${emulatedTenant}/oauth2/v2.0/authorize`,
    tokenPath: `/entra/${emulatedTenant}/oauth2/v2.0/token`,
    userInfoPath: '/entra/graph/oidc/userinfo',
    jwksPath: `/entra/${emulatedTenant}/discovery/v2.0/keys`,
    endSessionPath: `/entra/${emulatedTenant}/oauth2/v2.0/logout`,
    idTokenClaims: (user, _clientId, tenant) => ({
      ver: '2.0',
      // A pairwise sub per application; oid is the user's one id in the tenant.
      sub: `pairwise-${user.userId}`,
      oid: `00000000-0000-0000-0000-${Buffer.from(user.userId).toString('hex').padStart(12, '0').slice(0, 12)}`,
      tid: tenant,
      name: user.name,
      preferred_username: user.email,
      email: user.email,
    }),
    userInfo: (user) => ({ sub: `pairwise-${user.userId}`, name: user.name, email: user.email }),
    invalidGrant: {
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description:
          'AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.',
        error_codes: [70008],
        timestamp: '2026-01-01 00:00:00Z',
        trace_id: '00000000-0000-0000-0000-000000000000',
        correlation_id: '00000000-0000-0000-0000-000000000000',
      },
    },
  },
  {
    // https://{yourOktaDomain}/oauth2/default/.well-known/openid-configuration
    name: 'okta',
    issuerPath: '/okta/oauth2/default',
    authorizePath: '/okta/oauth2/default/v1/authorize',
    tokenPath: '/okta/oauth2/default/v1/token',
    userInfoPath: '/okta/oauth2/default/v1/userinfo',
    jwksPath: '/okta/oauth2/default/v1/keys',
    endSessionPath: '/okta/oauth2/default/v1/logout',
    idTokenClaims: (user) => ({
      ...standardClaims(user),
      sub: `00u${user.userId}`,
      ver: 1,
      preferred_username: user.email,
    }),
    userInfo: (user) => ({
      ...standardClaims(user),
      sub: `00u${user.userId}`,
      preferred_username: user.email,
    }),
    invalidGrant: grantRefused('The authorization code is invalid or has expired.'),
  },
  {
    // {base}/realms/{realm}/.well-known/openid-configuration
    name: 'keycloak',
    issuerPath: `/keycloak/realms/${emulatedRealm}`,
    authorizePath: `/keycloak/realms/${emulatedRealm}/protocol/openid-connect/auth`,
    tokenPath: `/keycloak/realms/${emulatedRealm}/protocol/openid-connect/token`,
    userInfoPath: `/keycloak/realms/${emulatedRealm}/protocol/openid-connect/userinfo`,
    jwksPath: `/keycloak/realms/${emulatedRealm}/protocol/openid-connect/certs`,
    endSessionPath: `/keycloak/realms/${emulatedRealm}/protocol/openid-connect/logout`,
    issParameter: true,
    idTokenClaims: (user, clientId) => ({
      ...standardClaims(user),
      sub: keycloakId(user),
      typ: 'ID',
      azp: clientId,
      preferred_username: user.username,
    }),
    userInfo: (user) => ({
      ...standardClaims(user),
      sub: keycloakId(user),
      preferred_username: user.username,
    }),
    invalidGrant: grantRefused('Code not valid'),
  },
  {
    // {base}/application/o/{slug}/.well-known/openid-configuration
    name: 'authentik',
    issuerPath: `/authentik/application/o/${emulatedSlug}/`,
    authorizePath: '/authentik/application/o/authorize/',
    tokenPath: '/authentik/application/o/token/',
    userInfoPath: '/authentik/application/o/userinfo/',
    jwksPath: `/authentik/application/o/${emulatedSlug}/jwks/`,
    endSessionPath: `/authentik/application/o/${emulatedSlug}/end-session/`,
    idTokenClaims: (user) => ({
      ...standardClaims(user),
      sub: hashedUserId(user),
      preferred_username: user.username,
      groups: user.groups ?? [],
    }),
    userInfo: (user) => ({
      ...standardClaims(user),
      sub: hashedUserId(user),
      preferred_username: user.username,
      groups: user.groups ?? [],
    }),
    invalidGrant: grantRefused(
      'The provided authorization grant or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client',
    ),
  },
  {
    // https://{yourDomain}/.well-known/openid-configuration
    name: 'auth0',
    issuerPath: '/auth0/',
    authorizePath: '/auth0/authorize',
    tokenPath: '/auth0/oauth/token',
    userInfoPath: '/auth0/userinfo',
    jwksPath: '/auth0/.well-known/jwks.json',
    endSessionPath: '/auth0/oidc/logout',
    idTokenClaims: (user) => ({ ...standardClaims(user), sub: `auth0|${user.userId}` }),
    userInfo: (user) => ({ ...standardClaims(user), sub: `auth0|${user.userId}` }),
    // Auth0 answers an unknown code with 403 Forbidden.
    invalidGrant: {
      status: 403,
      body: { error: 'invalid_grant', error_description: 'Invalid authorization code' },
    },
  },
];
