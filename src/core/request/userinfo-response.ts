import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { readGroups } from '../entry/group-mapping.js';
import type { EvaluationContext } from '../expression/index.js';
import { createEvaluationContext } from '../expression/index.js';
import type { MappedUser } from '../user/mapped-user.js';
import type { MappingReport } from '../user/map-user.js';
import { mapUser, mapUserReport } from '../user/map-user.js';
import { checkResponse, readAnswer } from './check-response.js';
import type { ThirdPartyResponse } from './outbound-request.js';
import type { ResponseOptions } from './token-response.js';

export interface UserInfoResponseOptions extends ResponseOptions {
  /** The entry's `tokenValues` from the token step, for TOKEN_VALUE in the mapping. */
  readonly tokenValues?: Readonly<Record<string, string>>;
}

/**
 * The evaluation context of a user-info answer, or of a body standing for
 * one: its secrets masked, and the token step's named values for
 * TOKEN_VALUE when there are any.
 */
export function userInfoContext(
  body: string,
  secrets: readonly string[],
  tokenValues: UserInfoResponseOptions['tokenValues'] | undefined,
): EvaluationContext {
  return createEvaluationContext(body, {
    secrets,
    ...(tokenValues === undefined ? {} : { tokenValues }),
  });
}

/** Checks the user-info response and maps it to a user (docs/entries.md#user-mapping). */
export function processUserInfoResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets, tokenValues }: UserInfoResponseOptions,
): MappedUser {
  const context = userInfoContext(response.body, secrets, tokenValues);
  checkResponse(entry.userInfo, response, context, secrets);
  return readAnswer(response, secrets, () => mapUser(entry.userInfoParse, context));
}

/**
 * Maps a user from a body the gateway composed itself rather than received
 * (an OpenID Connect entry's verified claims: docs/entries.md#openid-connect),
 * with the same mappings as the user-info step, groups included.
 */
export function mapUserFromBody(
  entry: CompiledOAuth2Entry,
  body: string,
  { secrets, tokenValues }: UserInfoResponseOptions,
): MappedUser {
  const context = userInfoContext(body, secrets, tokenValues);
  return mapUserWithGroups(entry, context);
}

/**
 * The entry's user mapping and, when it has one, its groupMapping
 * (docs/entries.md#groups-and-administrators) over the same answer: every
 * path that reads the user from a user-info answer or from verified claims
 * comes here, so none of them can forget the groups.
 */
export function mapUserWithGroups(
  entry: CompiledOAuth2Entry,
  context: EvaluationContext,
): MappedUser {
  const mapped = mapUser(entry.userInfoParse, context);
  return entry.groupMapping === undefined
    ? mapped
    : { ...mapped, groups: readGroups(entry.groupMapping, context) };
}

/** The user-info step's status and success condition alone, for a body mapped afterwards. */
export function checkUserInfoResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets }: ResponseOptions,
): void {
  checkResponse(
    entry.userInfo,
    response,
    createEvaluationContext(response.body, { secrets }),
    secrets,
  );
}

/**
 * The same as processUserInfoResponse, but every mapping line's outcome is
 * reported rather than the first failure thrown (the console's test panel).
 * A response the entry's success condition refuses still throws.
 */
export function reportUserInfoResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets, tokenValues }: UserInfoResponseOptions,
): MappingReport {
  const context = userInfoContext(response.body, secrets, tokenValues);
  checkResponse(entry.userInfo, response, context, secrets);
  return mapUserReport(entry.userInfoParse, context);
}
