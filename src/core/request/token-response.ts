import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { SsogateError } from '../errors/ssogate-error.js';
import type { JsonValue } from '../expression/index.js';
import { createEvaluationContext, evaluate } from '../expression/index.js';
import { checkResponse, readAnswer } from './check-response.js';
import type { ThirdPartyResponse } from './outbound-request.js';
import { isVisibleAscii } from './visible-ascii.js';

interface TokenResult {
  readonly accessToken: string;
  /** Named values from the token response, for `${name}` in the user-info call. */
  readonly values: Readonly<Record<string, string>>;
}

export interface ResponseOptions {
  /** Values to mask in any error message: the app secret, the code, tokens. */
  readonly secrets: readonly string[];
  /** Tokens verified before this step (an id_token), for JWT_CLAIMS. */
  readonly verifiedTokens?: ReadonlyMap<string, JsonValue>;
}

const maxAccessTokenLength = 16 * 1024;

/**
 * Checks the token response and extracts the access token and the named
 * values (flow step 11). Pure: the body is parsed once, whatever the number
 * of expressions run over it.
 */
export function processTokenResponse(
  entry: CompiledOAuth2Entry,
  response: ThirdPartyResponse,
  { secrets, verifiedTokens }: ResponseOptions,
): TokenResult {
  const { token: call, tokenParse } = entry;
  if (call === undefined || tokenParse === undefined) {
    throw new SsogateError('field_invalid', 'the entry has no token exchange', {
      field: 'tokenUrl',
    });
  }
  const context = createEvaluationContext(response.body, {
    secrets,
    ...(verifiedTokens === undefined ? {} : { verifiedTokens }),
  });
  checkResponse(call, response, context, secrets);
  return readAnswer(response, secrets, () => {
    const accessToken = checkAccessToken(evaluate(tokenParse, context));
    const values: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const { name, expression } of entry.tokenValues) {
      values[name] = scalarText(name, evaluate(expression, context));
    }
    return { accessToken, values };
  });
}

function checkAccessToken(value: JsonValue): string {
  if (typeof value !== 'string' || value === '') {
    throw new SsogateError(
      'access_token_invalid',
      'the token parsing did not yield a non-empty text',
    );
  }
  // A CR/LF in a token would otherwise reach a header of the user-info call.
  // RFC 6749 Appendix A.12: access-token = 1*VSCHAR.
  if (value.length > maxAccessTokenLength || !isVisibleAscii(value)) {
    throw new SsogateError(
      'access_token_invalid',
      `the access token must be 1 to ${maxAccessTokenLength} printable ASCII characters (RFC 6749 Appendix A.12)`,
    );
  }
  return value;
}

export function scalarText(name: string, value: JsonValue): string {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
    return String(value);
  }
  throw new SsogateError('value_type', `token value '${name}' must be text or a number`);
}
