import type { UserInfoResponseOptions } from './userinfo-response.js';
import { mapUserWithGroups, userInfoContext } from './userinfo-response.js';
import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import type { CompiledUserInfoCall, NamedValue } from '../entry/compile-shapes.js';
import { SsogateError } from '../errors/ssogate-error.js';
import type { EvaluationContext } from '../expression/index.js';
import { createEvaluationContext, evaluate } from '../expression/index.js';
import type { PlaceholderValues } from '../template/index.js';
import type { MappedUser } from '../user/mapped-user.js';
import { coerceAttribute } from '../user/coerce.js';
import { buildCallRequest } from './call-request.js';
import { checkResponse, readAnswer } from './check-response.js';
import type { OutboundRequest, ThirdPartyResponse } from './outbound-request.js';
import type { ResponseOptions } from './token-response.js';
import { scalarText } from './token-response.js';
import { isVisibleAscii } from './visible-ascii.js';

/**
 * The calls of docs/entries.md#shapes-beyond-the-basic-flow: the application
 * token before the code exchange, the user-info call that may carry the code
 * and the application token, and the chain of calls after it. Pure, like
 * the rest of the request steps: the gateway sends what these build.
 */

export interface AppTokenResult {
  readonly token: string;
  /** How long the server says the token lives, in seconds. */
  readonly lifetimeSeconds: number;
}

const maxAppTokenLength = 16 * 1024;

export function buildAppTokenRequest(entry: CompiledOAuth2Entry): OutboundRequest {
  const call = entry.shapes.appToken;
  if (call === undefined) {
    throw new SsogateError('field_invalid', 'the entry has no appToken call', {
      field: 'appToken',
    });
  }
  return buildCallRequest(call, {
    values: { appid: entry.appid, app_secret: entry.appsecret },
    timeoutMs: entry.timeoutMs,
  });
}

/** Checks the application-token answer and reads the token and its lifetime. */
export function processAppTokenResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets }: ResponseOptions,
): AppTokenResult {
  const call = entry.shapes.appToken;
  if (call === undefined) {
    throw new SsogateError('field_invalid', 'the entry has no appToken call', {
      field: 'appToken',
    });
  }
  const context = createEvaluationContext(response.body, { secrets });
  checkResponse(call, response, context, secrets);
  const token = evaluate(call.parse, context);
  // The token goes into URLs and headers of later calls, like an access token.
  if (
    typeof token !== 'string' ||
    token === '' ||
    token.length > maxAppTokenLength ||
    !isVisibleAscii(token)
  ) {
    throw new SsogateError(
      'app_token_invalid',
      `the application token must be 1 to ${maxAppTokenLength} printable ASCII characters`,
    );
  }
  const lifetimeSeconds =
    call.expiresIn === undefined ? call.ttlSeconds : Number(evaluate(call.expiresIn, context));
  if (lifetimeSeconds === undefined || !Number.isFinite(lifetimeSeconds) || lifetimeSeconds <= 0) {
    throw new SsogateError(
      'app_token_invalid',
      'the application token lifetime (appToken.expiresIn) must be a positive number of seconds',
    );
  }
  return { token, lifetimeSeconds };
}

/** What the user-info step and the chain may substitute, gathered as the answers arrive. */
export interface StepValues {
  readonly accessToken: string | undefined;
  readonly code: string | undefined;
  readonly appToken: string | undefined;
  /** Named values: the token answer's, the user-info answer's, each call's. */
  readonly named: Readonly<Record<string, string>>;
}

function placeholderValues(entry: CompiledOAuth2Entry, values: StepValues): PlaceholderValues {
  // Named values first: validation keeps their names apart from the built-in
  // placeholders, so neither can shadow the other.
  return {
    ...values.named,
    appid: entry.appid,
    access_token: values.accessToken,
    app_token: values.appToken,
  };
}

/** The user-info call with the shapes' values: `${code}` and `${app_token}` where allowed. */
export function buildShapedUserInfoRequest(
  entry: CompiledOAuth2Entry,
  values: StepValues,
): OutboundRequest {
  return buildCallRequest(entry.userInfo, {
    values: { ...placeholderValues(entry, values), code: values.code },
    timeoutMs: entry.timeoutMs,
  });
}

export interface UserInfoAnswer {
  readonly user: MappedUser;
  /** The entry's userInfoValues, read from the same answer. */
  readonly values: Readonly<Record<string, string>>;
}

/** Maps the user and reads the named values from one parse of the user-info answer. */
export function processUserInfoAnswer(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets, tokenValues }: UserInfoResponseOptions,
): UserInfoAnswer {
  const context = userInfoContext(response.body, secrets, tokenValues);
  checkResponse(entry.userInfo, response, context, secrets);
  return readAnswer(response, secrets, () => readUserInfo(entry, context));
}

/**
 * The user and the named values of a body the gateway composed itself (an
 * OpenID Connect entry's verified claims, merged with the user-info answer
 * when it has one: docs/entries.md#openid-connect), read as
 * processUserInfoAnswer reads an answer.
 */
export function readComposedUserInfo(
  entry: CompiledOAuth2Entry,
  body: string,
  { secrets, tokenValues }: UserInfoResponseOptions,
): UserInfoAnswer {
  return readUserInfo(entry, userInfoContext(body, secrets, tokenValues));
}

function readUserInfo(entry: CompiledOAuth2Entry, context: EvaluationContext): UserInfoAnswer {
  return {
    user: mapUserWithGroups(entry, context),
    values: readNamedValues(entry.shapes.userInfoValues, context),
  };
}

export function buildUserInfoCallRequest(
  entry: CompiledOAuth2Entry,
  call: CompiledUserInfoCall,
  values: StepValues,
): OutboundRequest {
  return buildCallRequest(call, {
    values: placeholderValues(entry, values),
    timeoutMs: entry.timeoutMs,
  });
}

export interface UserInfoCallAnswer {
  readonly values: Readonly<Record<string, string>>;
  /** The user with the attributes this call's mapping fills replaced. */
  readonly user: MappedUser;
}

/** Checks a chain call's answer, reads its values and lays its mapping over the user. */
export function processUserInfoCallResponse(
  call: CompiledUserInfoCall,
  user: MappedUser,
  response: ThirdPartyResponse,
  { secrets }: ResponseOptions,
): UserInfoCallAnswer {
  const context = createEvaluationContext(response.body, { secrets });
  checkResponse(call, response, context, secrets);
  const filled: Record<string, string | boolean> = {};
  for (const { attribute, expression } of call.mapping) {
    const value = coerceAttribute(attribute, evaluate(expression, context));
    if (value !== undefined) filled[attribute] = value;
  }
  // Validation refuses userId in a chain call's mapping: the user stays who user info said.
  return {
    values: readNamedValues(call.values, context),
    user: { ...user, ...filled, userId: user.userId, extra: user.extra },
  };
}

function readNamedValues(
  values: readonly NamedValue[],
  context: EvaluationContext,
): Record<string, string> {
  const read = Object.create(null) as Record<string, string>;
  for (const { name, expression } of values)
    read[name] = scalarText(name, evaluate(expression, context));
  return read;
}
