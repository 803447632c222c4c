import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { SsogateError } from '../errors/ssogate-error.js';
import { isJsonObject } from '../expression/json-value.js';
import { parseUntrustedJson } from '../expression/safe-json.js';
import type { OutboundRequest, ThirdPartyResponse } from './outbound-request.js';
import { maxResponseBytes } from './outbound-request.js';
import type { ResponseOptions } from './token-response.js';

/**
 * RFC 6749 §6: the refresh token grant at an OpenID Connect entry's token
 * endpoint, the client authenticated with HTTP Basic when it has a secret,
 * by its client_id alone otherwise (a session's re-validation,
 * docs/entries.md#re-validation).
 */
export function buildRefreshRequest(
  entry: CompiledOAuth2Entry,
  refreshToken: string,
): OutboundRequest {
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (entry.appsecret !== undefined && entry.appid !== undefined) {
    const credentials = `${encodeURIComponent(entry.appid)}:${encodeURIComponent(entry.appsecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  } else if (entry.appid !== undefined) {
    body.set('client_id', entry.appid);
  }
  return {
    method: 'POST',
    url: entry.oidc?.discovery.tokenEndpoint ?? '',
    headers,
    body: body.toString(),
    timeoutMs: entry.timeoutMs,
    maxResponseBytes,
  };
}

/** What a refresh answer carries (RFC 6749 §5.1), each field only when it is a string. */
interface RefreshResult {
  /** Absent or empty: no user-info call can be made with it. */
  readonly accessToken: string | undefined;
  readonly idToken: string | undefined;
  /** A rotated refresh token, to keep in place of the one sent. */
  readonly refreshToken: string | undefined;
}

/** Reads the answer to the refresh grant, once its status said it succeeded. */
export function processRefreshResponse(
  response: ThirdPartyResponse,
  { secrets }: ResponseOptions,
): RefreshResult {
  const tokens = parseUntrustedJson(response.body, { secrets });
  if (!isJsonObject(tokens)) {
    throw new SsogateError('response_not_json', 'the refresh answer is not a JSON object');
  }
  const text = (name: string): string | undefined => {
    const value = Object.hasOwn(tokens, name) ? tokens[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const accessToken = text('access_token');
  return {
    accessToken: accessToken === '' ? undefined : accessToken,
    idToken: text('id_token'),
    refreshToken: text('refresh_token'),
  };
}
