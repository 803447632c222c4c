import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { buildCallRequest } from './call-request.js';
import type { OutboundRequest } from './outbound-request.js';
import type { StepValues } from './shaped-calls.js';
import { placeholderValues } from './shaped-calls.js';

/**
 * Shapes the user-info call (flow step 14) with the values gathered so far:
 * the access token and the token answer's named values, and `${code}` and
 * `${app_token}` where the entry's shapes allow them
 * (docs/entries.md#shapes-beyond-the-basic-flow).
 */
export function buildUserInfoRequest(
  entry: CompiledOAuth2Entry,
  values: StepValues,
): OutboundRequest {
  return buildCallRequest(entry.userInfo, {
    values: { ...placeholderValues(entry, values), code: values.code },
    timeoutMs: entry.timeoutMs,
  });
}
