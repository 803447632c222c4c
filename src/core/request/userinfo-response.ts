import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { readGroups } from '../entry/group-mapping.js';
import { SsogateError, isSsogateError } from '../errors/ssogate-error.js';
import type { EvaluationContext } from '../expression/index.js';
import { createEvaluationContext } from '../expression/index.js';
import type { Claims } from '../oidc/id-token-claims.js';
import type { UserInfoSource } from '../oidc/oidc-input.js';
import { userInfoBody } from '../oidc/userinfo-claims.js';
import type { MappedUser } from '../user/mapped-user.js';
import type { MappingLineReport } from '../user/map-user.js';
import { mapUserReport } from '../user/map-user.js';
import { checkResponse, readAnswer } from './check-response.js';
import type { ThirdPartyResponse } from './outbound-request.js';
import { readNamedValues } from './shaped-calls.js';
import type { ResponseOptions } from './token-response.js';

/** An OpenID Connect entry's verified claims, which the user is read with (docs/entries.md#openid-connect). */
interface VerifiedUserClaims {
  readonly claims: Claims;
  /** Whether the mapping reads the claims, the user-info answer, or both merged. */
  readonly source: UserInfoSource;
}

export interface UserInfoOptions extends ResponseOptions {
  /** The entry's `tokenValues` from the token step, for TOKEN_VALUE in the mapping. */
  readonly tokenValues?: Readonly<Record<string, string>> | undefined;
  /**
   * Claims a user-info answer must agree with and is composed with; absent
   * for a plain OAuth2 entry, whose mapping reads the answer itself.
   */
  readonly verified?: VerifiedUserClaims | undefined;
  /**
   * True: every mapping line's outcome is reported rather than the first
   * failure thrown (the console's test panel, a test sign-in's trace). A
   * refused answer (status, success condition) still throws.
   */
  readonly report?: boolean;
}

export interface UserInfoAnswer {
  readonly user: MappedUser;
  /** The entry's userInfoValues, read from the same answer. */
  readonly values: Readonly<Record<string, string>>;
}

/** Each mapping line's outcome, and the answer read, or why there is none. */
export interface UserInfoReport {
  readonly lines: readonly MappingLineReport[];
  readonly result: { readonly answer: UserInfoAnswer } | { readonly error: SsogateError };
}

/**
 * Reads the user from the user-info step (flow step 14), the one way every
 * path does: the sign-in, a test sign-in, a session's re-validation and the
 * console's pasted samples. The answer's status and success condition are
 * checked first; then the entry's user mapping, its groupMapping
 * (docs/entries.md#groups-and-administrators) and its userInfoValues are read
 * from one parse of the body. With `verified`, the body is the claims, the
 * answer checked to be about their subject, or both merged (userInfoBody);
 * `response` is undefined when the entry reads the claims alone.
 */
export function readUserInfo(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse | undefined,
  options: UserInfoOptions & { readonly report: true },
): UserInfoReport;
export function readUserInfo(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse | undefined,
  options: UserInfoOptions & { readonly report?: false },
): UserInfoAnswer;
export function readUserInfo(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse | undefined,
  options: UserInfoOptions,
): UserInfoAnswer | UserInfoReport {
  const { secrets, verified } = options;
  if (verified === undefined) {
    if (response === undefined) {
      throw new SsogateError('internal_error', 'no user-info answer and no claims to read');
    }
    const context = contextOf(response.body, options);
    checkResponse(entry.userInfo, response, context, secrets);
    return read(entry, context, options, response);
  }
  if (verified.source === 'claims' || response === undefined) {
    return read(entry, JSON.stringify(verified.claims), options);
  }
  // The answer is checked as it came; the mapping reads it composed with the claims.
  const raw = createEvaluationContext(response.body, { secrets });
  checkResponse(entry.userInfo, response, raw, secrets);
  const body = userInfoBody(verified.source, verified.claims, response.body, secrets);
  return read(entry, body, options);
}

function contextOf(body: string, { secrets, tokenValues }: UserInfoOptions): EvaluationContext {
  return createEvaluationContext(body, {
    secrets,
    ...(tokenValues === undefined ? {} : { tokenValues }),
  });
}

/**
 * The mapping, the groups and the named values over one context. A failure
 * keeps the server's own explanation when the body has one (readAnswer),
 * for an answer received; a composed body explains nothing of its own.
 */
function read(
  entry: CompiledOAuth2Entry,
  source: EvaluationContext | string,
  options: UserInfoOptions,
  response?: ThirdPartyResponse,
): UserInfoAnswer | UserInfoReport {
  const context = typeof source === 'string' ? contextOf(source, options) : source;
  const mapping = mapUserReport(entry.userInfoParse, context);
  const answer = (): UserInfoAnswer => {
    if ('error' in mapping.result) throw mapping.result.error;
    const mapped = mapping.result.user;
    return {
      user:
        entry.groupMapping === undefined
          ? mapped
          : { ...mapped, groups: readGroups(entry.groupMapping, context) },
      values: readNamedValues(entry.shapes.userInfoValues, context),
    };
  };
  const explained = () =>
    response === undefined ? answer() : readAnswer(response, options.secrets, answer);
  if (options.report !== true) return explained();
  try {
    return { lines: mapping.lines, result: { answer: explained() } };
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    return { lines: mapping.lines, result: { error } };
  }
}
