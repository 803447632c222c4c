import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { createEvaluationContext } from '../expression/index.js';
import type { MappedUser } from '../user/mapped-user.js';
import { mapUser } from '../user/map-user.js';
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
