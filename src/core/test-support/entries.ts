import type { RandomSource } from '../request/random.js';

/**
 * Factories for entries as an administrator would submit them. The GET
 * style is the baseline; tests override only what they are about.
 */
export const canarySecret = 'CANARY_SECRET_7f3a9c';

export function buildGetEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'corp',
    name: 'Corp SSO',
    enabled: true,
    appid: 'app-1',
    appsecret: canarySecret,
    authorizeUrl:
      'https://as.example/oauth/authorize?appid=${appid}&redirect_uri=${redirect_uri}&state=${state}',
    tokenUrl:
      'https://as.example/oauth/token?appid=${appid}&secret=${app_secret}&code=${code}&redirect_uri=${redirect_uri}',
    tokenParse: "JSON_GET($response, 'access_token')",
    userInfoUrl: 'https://as.example/oauth/userinfo?appid=${appid}&access_token=${access_token}',
    ...overrides,
  };
}

/** The `POST ` style: JSON bodies for the token and user-info calls. */
export function buildPostEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return buildGetEntry({
    id: 'corp-post',
    tokenUrl:
      'POST https://as.example/oauth/token?grant_type=authorization_code&appid=${appid}&secret=${app_secret}&code=${code}&redirect_uri=${redirect_uri}',
    userInfoUrl: 'POST https://as.example/oauth/userinfo?access_token=${access_token}',
    ...overrides,
  });
}

/** A standard RFC 6749 server: form POST, Basic auth, Bearer user-info, PKCE. */
export function buildStandardEntry(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return buildGetEntry({
    id: 'standard',
    authorizeUrl:
      'https://as.example/authorize?response_type=code&client_id=${appid}&redirect_uri=${redirect_uri}&state=${state}&scope=openid%20profile',
    tokenUrl:
      'POST https://as.example/token?grant_type=authorization_code&code=${code}&redirect_uri=${redirect_uri}',
    tokenRequest: { bodyEncoding: 'form', clientAuthentication: 'basic' },
    userInfoUrl: 'https://as.example/userinfo',
    userInfoRequest: { headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }] },
    userInfoParse: [
      { attribute: 'userId', expression: "JSON_GET($response, 'sub')" },
      { attribute: 'email', expression: "JSON_GET($response, 'email')" },
    ],
    pkce: true,
    ...overrides,
  });
}

/** A deterministic random source: bytes 0, 1, 2, ... continuing across calls. */
export function sequenceRandom(): RandomSource {
  let next = 0;
  return (size) => Uint8Array.from({ length: size }, () => next++ % 256);
}
