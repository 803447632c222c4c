import type { z } from 'zod';
import type { EntryInput } from '../entry/index.js';
import { entryInput } from '../entry/index.js';
import type { RandomSource } from '../request/random.js';

/**
 * The one factory of entries for tests and benchmarks. An entry is built as an
 * administrator would submit it (`EntryDraft`, the schema's input type, so a
 * misspelt or mistyped field fails to compile); the GET style is the baseline
 * and tests override only what they are about. A test about bad input spreads
 * the bad value over a valid entry: `{ ...buildGetEntry(), enabled: 'yes' }`.
 */
export type EntryDraft = z.input<typeof entryInput>;

export const canarySecret = 'CANARY_SECRET_7f3a9c';

export function buildGetEntry(overrides: Partial<EntryDraft> = {}): EntryDraft {
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

/** A GET-style entry with the given id and the name `Entry <id>`, for tests that keep several. */
export function entryWithId(id: string, overrides: Partial<EntryDraft> = {}): EntryDraft {
  return buildGetEntry({ id, name: `Entry ${id}`, ...overrides });
}

/** The same entry parsed as the API would, so its shape is exactly what storage keeps. */
export function parsedEntry(id: string, overrides: Partial<EntryDraft> = {}): EntryInput {
  return entryInput.parse(entryWithId(id, overrides));
}

/** The `POST ` style: JSON bodies for the token and user-info calls. */
export function buildPostEntry(overrides: Partial<EntryDraft> = {}): EntryDraft {
  return buildGetEntry({
    id: 'corp-post',
    tokenUrl:
      'POST https://as.example/oauth/token?grant_type=authorization_code&appid=${appid}&secret=${app_secret}&code=${code}&redirect_uri=${redirect_uri}',
    userInfoUrl: 'POST https://as.example/oauth/userinfo?access_token=${access_token}',
    ...overrides,
  });
}

/** A standard RFC 6749 server: form POST, Basic auth, Bearer user-info, PKCE. */
export function buildStandardEntry(overrides: Partial<EntryDraft> = {}): EntryDraft {
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
