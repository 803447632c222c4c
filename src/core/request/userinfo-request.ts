import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { buildCallRequest } from './call-request.js';
import type { OutboundRequest } from './outbound-request.js';
import type { TokenResult } from './token-response.js';

/** Shapes the user-info call (flow step 14). */
export function buildUserInfoRequest(
  entry: CompiledOAuth2Entry,
  token: TokenResult,
): OutboundRequest {
  return buildCallRequest(entry.userInfo, {
    // Token values first: validation keeps their names apart from the
    // built-in placeholders, so neither can shadow the other.
    values: { ...token.values, appid: entry.appid, access_token: token.accessToken },
    timeoutMs: entry.timeoutMs,
  });
}
