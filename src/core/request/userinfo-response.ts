import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { createEvaluationContext } from '../expression/index.js';
import type { MappedUser } from '../user/mapped-user.js';
import type { MappingReport } from '../user/map-user.js';
import { mapUser, mapUserReport } from '../user/map-user.js';
import { checkResponse } from './check-response.js';
import type { ThirdPartyResponse } from './outbound-request.js';
import type { ResponseOptions } from './token-response.js';

/** Checks the user-info response and maps it to a user (docs/entries.md#user-mapping). */
export function processUserInfoResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets }: ResponseOptions,
): MappedUser {
  const context = createEvaluationContext(response.body, { secrets });
  checkResponse(entry.userInfo, response, context, secrets);
  return mapUser(entry.userInfoParse, context);
}

/**
 * The same as processUserInfoResponse, but every mapping line's outcome is
 * reported rather than the first failure thrown (the console's test panel).
 * A response the entry's success condition refuses still throws.
 */
export function reportUserInfoResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets }: ResponseOptions,
): MappingReport {
  const context = createEvaluationContext(response.body, { secrets });
  checkResponse(entry.userInfo, response, context, secrets);
  return mapUserReport(entry.userInfoParse, context);
}
