import { SsogateError } from '../errors/ssogate-error.js';
import { parseUntrustedJson } from '../expression/safe-json.js';

/**
 * What the gateway uses of an OpenID Provider's metadata (OpenID Connect
 * Discovery 1.0 §3), read from `{issuer}/.well-known/openid-configuration`.
 */
export interface OidcDiscovery {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly userInfoEndpoint: string | undefined;
  readonly jwksUri: string;
  readonly endSessionEndpoint: string | undefined;
  /** RFC 9207 §3: the provider puts `iss` on every authorization response. */
  readonly issParameterSupported: boolean;
  readonly backchannelLogoutSupported: boolean;
}

/** The discovery URL of an issuer (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

function invalid(message: string): SsogateError {
  return new SsogateError('oidc_discovery_invalid', message);
}

/**
 * Reads a discovery document. The `issuer` inside must be exactly the one
 * configured (Discovery §4.3), or a provider could speak for another. An
 * endpoint must be an absolute http(s) URL without `$`, as it becomes the
 * literal start of an entry's template.
 */
export function parseDiscovery(body: string, expectedIssuer: string): OidcDiscovery {
  let value;
  try {
    value = parseUntrustedJson(body, { secrets: [] });
  } catch {
    throw invalid('the discovery document is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('the discovery document is not a JSON object');
  }
  const doc = value as Readonly<Record<string, unknown>>;
  const text = (key: string): string | undefined => {
    const field = Object.hasOwn(doc, key) ? doc[key] : undefined;
    return typeof field === 'string' ? field : undefined;
  };
  const endpoint = (key: string, required: boolean): string | undefined => {
    const url = text(key);
    if (url === undefined) {
      if (required) throw invalid(`the discovery document has no ${key}`);
      return undefined;
    }
    if (!isPlainHttpUrl(url)) throw invalid(`${key} is not an absolute http(s) URL without '$'`);
    return url;
  };
  if (text('issuer') !== expectedIssuer) {
    throw invalid(
      `the document's issuer is ${JSON.stringify(text('issuer') ?? null)}, not the configured ${JSON.stringify(expectedIssuer)}`,
    );
  }
  return {
    issuer: expectedIssuer,
    authorizationEndpoint: endpoint('authorization_endpoint', true) ?? '',
    tokenEndpoint: endpoint('token_endpoint', true) ?? '',
    userInfoEndpoint: endpoint('userinfo_endpoint', false),
    jwksUri: endpoint('jwks_uri', true) ?? '',
    endSessionEndpoint: endpoint('end_session_endpoint', false),
    issParameterSupported: doc.authorization_response_iss_parameter_supported === true,
    backchannelLogoutSupported: doc.backchannel_logout_supported === true,
  };
}

function isPlainHttpUrl(url: string): boolean {
  if (url.includes('$') || url.includes('#') || /[^\x21-\x7e]/.test(url)) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * What an entry is checked against before its provider was reached (the
 * API, the provisioning file): every endpoint stands in as the issuer, so
 * the rest of the entry is validated as it will be once discovery answers.
 */
export function standInDiscovery(issuer: string): OidcDiscovery {
  return {
    issuer,
    authorizationEndpoint: issuer,
    tokenEndpoint: issuer,
    userInfoEndpoint: issuer,
    jwksUri: issuer,
    endSessionEndpoint: undefined,
    issParameterSupported: false,
    backchannelLogoutSupported: false,
  };
}
