import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import type { CompiledUserInfoCall, NamedValue } from '../entry/compile-shapes.js';
import { SsogateError } from '../errors/ssogate-error.js';
import type { EvaluationContext } from '../expression/index.js';
import { createEvaluationContext, evaluate } from '../expression/index.js';
import type { PlaceholderValues } from '../template/index.js';
import type { MappedUser } from '../user/mapped-user.js';
import { coerceAttribute } from '../user/coerce.js';
import { buildCallRequest } from './call-request.js';
import { checkResponse } from './check-response.js';
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

interface AppTokenResult {
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

/** The placeholders of the user-info call and the calls after it. */
export function placeholderValues(
  entry: CompiledOAuth2Entry,
  values: StepValues,
): PlaceholderValues {
  // Named values first: validation keeps their names apart from the built-in
  // placeholders, so neither can shadow the other.
  return {
    ...values.named,
    appid: entry.appid,
    access_token: values.accessToken,
    app_token: values.appToken,
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

interface UserInfoCallAnswer {
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

/** Each named value's expression over an answer, as text (tokenValues, userInfoValues, a call's values). */
export function readNamedValues(
  values: readonly NamedValue[],
  context: EvaluationContext,
): Record<string, string> {
  const read = Object.create(null) as Record<string, string>;
  for (const { name, expression } of values)
    read[name] = scalarText(name, evaluate(expression, context));
  return read;
}
