import type { CompiledCall } from '../entry/compiled-entry.js';
import { SsogateError } from '../errors/ssogate-error.js';
import type { EvaluationContext } from '../expression/index.js';
import { evaluateCondition } from '../expression/index.js';
import { excerpt, maskSecrets } from '../mask/index.js';
import type { ThirdPartyResponse } from './outbound-request.js';

/**
 * The checks every call's response passes before anything is parsed out of
 * it: a 2xx status (redirects are not followed, so a 3xx fails here too), then
 * the entry's success condition, so that `200 {"errcode":40029}` is reported
 * as the server's error and not as "no token".
 */
export function checkResponse(
  call: CompiledCall,
  response: ThirdPartyResponse,
  context: EvaluationContext,
  secrets: readonly string[],
): void {
  if (response.status < 200 || response.status > 299) {
    throw new SsogateError(
      'response_status',
      `the server answered ${response.status} (body, first 80 characters: ${bodyExcerpt(response, secrets)})`,
      { facts: { status: response.status, ...serverErrorFacts(response, secrets) } },
    );
  }
  const condition = call.successCondition;
  if (condition !== undefined && !evaluateCondition(condition, context)) {
    throw new SsogateError(
      'success_condition_failed',
      `the response does not meet the success condition ${condition.source} ` +
        `(body, first 80 characters: ${bodyExcerpt(response, secrets)})`,
      {
        facts: {
          status: response.status,
          condition: condition.source,
          ...serverErrorFacts(response, secrets),
        },
      },
    );
  }
}

/**
 * Reads an answer that passed checkResponse. When the reading fails and the
 * body carries the server's own explanation, the failure keeps it for the
 * audit trail: GitHub refuses a code exchange with
 * `200 {"error":"incorrect_client_credentials",...}`, which an entry without
 * a success condition reads as "no access_token", and the operator needs to
 * see why.
 */
export function readAnswer<T>(
  response: ThirdPartyResponse,
  secrets: readonly string[],
  read: () => T,
): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof SsogateError)) throw error;
    const explanation = serverErrorFacts(response, secrets);
    if (Object.keys(explanation).length === 0) throw error;
    throw new SsogateError(error.code, error.message, {
      ...(error.field === undefined ? {} : { field: error.field }),
      ...(error.line === undefined ? {} : { line: error.line }),
      ...(error.column === undefined ? {} : { column: error.column }),
      cause: error,
      facts: { ...explanation, ...error.facts },
    });
  }
}

/** The fields servers explain a refusal in (RFC 6749 §5.2, and the errcode/errmsg envelopes). */
const explainingFields = ['error', 'error_description', 'errcode', 'errmsg', 'message'] as const;

/**
 * The server's own explanation, when its body is a JSON object that has one:
 * each value masked and cut short, for the audit trail.
 */
function serverErrorFacts(
  response: ThirdPartyResponse,
  secrets: readonly string[],
): Record<string, string | number> {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return {};
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const facts: Record<string, string | number> = {};
  for (const field of explainingFields) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isFinite(value)) facts[field] = value;
    if (typeof value === 'string') facts[field] = excerpt(maskSecrets(value, secrets), 200);
  }
  return facts;
}

function bodyExcerpt(response: ThirdPartyResponse, secrets: readonly string[]): string {
  return excerpt(maskSecrets(response.body, secrets), 80);
}
