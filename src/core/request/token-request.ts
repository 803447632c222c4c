import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { SsogateError } from '../errors/ssogate-error.js';
import { buildCallRequest } from './call-request.js';
import type { OutboundRequest } from './outbound-request.js';

interface TokenRequestOptions {
  readonly code: string;
  /** The same string the authorization request carried (RFC 6749 §4.1.3). */
  readonly redirectUri: string;
  readonly codeVerifier: string | undefined;
  /** The application token, when the entry has an appToken call (`${app_token}`). */
  readonly appToken?: string | undefined;
}

/** Shapes the code-for-token call (flow step 11). */
export function buildTokenRequest(
  entry: CompiledOAuth2Entry,
  options: TokenRequestOptions,
): OutboundRequest {
  const { code, redirectUri, codeVerifier, appToken } = options;
  const call = entry.token;
  if (call === undefined) {
    throw new SsogateError('field_invalid', 'the entry has no token exchange', {
      field: 'tokenUrl',
    });
  }
  return buildCallRequest(call, {
    values: {
      appid: entry.appid,
      app_secret: entry.appsecret,
      redirect_uri: redirectUri,
      code,
      app_token: appToken,
    },
    extraParameters: codeVerifier === undefined ? [] : [['code_verifier', codeVerifier]],
    extraHeaders:
      call.clientAuthentication === 'basic' ? { authorization: basicAuthorization(entry) } : {},
    timeoutMs: entry.timeoutMs,
  });
}

/**
 * RFC 6749 §2.3.1: the client id and secret are form-encoded before they are
 * joined with a colon and base64-encoded, so a colon in either survives.
 */
function basicAuthorization(entry: CompiledOAuth2Entry): string {
  if (entry.appid === undefined || entry.appsecret === undefined) {
    throw new SsogateError(
      'template_value_missing',
      'HTTP Basic client authentication needs both an appid and an appsecret',
      { field: entry.appid === undefined ? 'appid' : 'appsecret' },
    );
  }
  const credentials = `${formEncode(entry.appid)}:${formEncode(entry.appsecret)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}
