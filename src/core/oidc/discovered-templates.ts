import type { OidcDiscovery } from './discovery.js';
import type { UserInfoSource } from './oidc-input.js';

/** Scopes asked for besides `openid` when the entry names none. */
const defaultOidcScope = 'profile email';

/**
 * The standard claims as a mapping (OpenID Connect Core §5.1), used when an
 * OpenID Connect entry leaves `userInfoParse` empty.
 */
const standardClaimsMapping = [
  "userId = JSON_GET($response, 'sub')",
  "userName = FIRST_NON_EMPTY(JSON_GET($response, 'name'), JSON_GET($response, 'preferred_username'), null)",
  "email = FIRST_NON_EMPTY(JSON_GET($response, 'email'), null)",
].join('\n');

/**
 * An OpenID Connect entry as the validator reads it: every template the
 * administrator left empty is written from the discovered endpoints, as the
 * standard authorization code flow (OpenID Connect Core §3.1.2, RFC 6749
 * §4.1) in the entry's own template language. What the administrator wrote
 * stays as written; nothing else of the entry changes. The nonce is not a
 * template: the authorization request appends it, like PKCE's challenge.
 */
export function withDiscoveredTemplates(
  raw: Readonly<Record<string, unknown>>,
  discovery: OidcDiscovery,
  oidc: { readonly scope: string | undefined; readonly userInfo: UserInfoSource },
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...raw };
  const absent = (field: string) => raw[field] === undefined || raw[field] === '';
  const hasSecret = typeof raw.appsecret === 'string' && raw.appsecret !== '';

  if (absent('authorizeUrl')) {
    const scope = encodeScope(`openid ${oidc.scope ?? defaultOidcScope}`);
    filled.authorizeUrl =
      `${discovery.authorizationEndpoint}${separator(discovery.authorizationEndpoint)}` +
      `response_type=code&client_id=\${appid}&redirect_uri=\${redirect_uri}&scope=${scope}&state=\${state}`;
  }
  if (absent('tokenUrl')) {
    // RFC 6749 §2.3.1: a confidential client authenticates with HTTP Basic;
    // a public one names itself in the body.
    filled.tokenUrl =
      `POST ${discovery.tokenEndpoint}${separator(discovery.tokenEndpoint)}` +
      `grant_type=authorization_code&code=\${code}&redirect_uri=\${redirect_uri}` +
      (hasSecret ? '' : '&client_id=${appid}');
    filled.tokenRequest = {
      bodyEncoding: 'form',
      clientAuthentication: hasSecret ? 'basic' : 'none',
      ...asObject(raw.tokenRequest),
    };
  }
  if (absent('tokenParse')) filled.tokenParse = "JSON_GET($response, 'access_token')";
  if (absent('userInfoUrl')) {
    // With userInfo "claims" the call is never made; the issuer stands in.
    const endpoint =
      discovery.userInfoEndpoint ?? (oidc.userInfo === 'claims' ? discovery.issuer : undefined);
    if (endpoint !== undefined) {
      filled.userInfoUrl = endpoint;
      const options = asObject(raw.userInfoRequest);
      filled.userInfoRequest = {
        headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }],
        ...options,
      };
    }
  }
  if (
    absent('userInfoParse') ||
    (Array.isArray(raw.userInfoParse) && raw.userInfoParse.length === 0)
  ) {
    filled.userInfoParse = standardClaimsMapping;
  }
  return filled;
}

function separator(url: string): string {
  return url.includes('?') ? '&' : '?';
}

/** Scope tokens are printable ASCII (RFC 6749 §3.3); the space is %20 in the template. */
function encodeScope(scope: string): string {
  return scope
    .split(' ')
    .map((token) => encodeURIComponent(token))
    .join('%20');
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}
