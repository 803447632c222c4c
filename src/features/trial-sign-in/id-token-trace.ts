import type { TraceResult } from './trace-types.js';

/**
 * The id_token's checks in the order src/foundation/oidc/id-token.ts runs
 * them (OpenID Connect Core §3.1.3.7), each with the codes its refusal has:
 * a refusal's code names the check that failed, and every check before it
 * passed.
 */
const checks: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['signature', ['id_token_missing', 'id_token_invalid_signature']],
  ['iss', ['id_token_issuer']],
  ['aud', ['id_token_audience']],
  ['exp', ['id_token_expired']],
  ['iat', ['id_token_issued_at']],
  ['sub', ['id_token_claims']],
  ['nonce', ['id_token_nonce']],
];

/**
 * The trace line of an OpenID Connect entry's id_token checks, from how its
 * token step ended: `failedWith` is that step's error code, undefined when
 * the step passed. Undefined when the checks never ran (the token call
 * itself failed). No claim's value is shown, only each check's outcome.
 */
export function idTokenChecksResult(failedWith: string | undefined): TraceResult | undefined {
  const failedAt =
    failedWith === undefined
      ? checks.length
      : checks.findIndex(([, codes]) => codes.includes(failedWith));
  if (failedAt === -1) return undefined;
  const outcomes = checks.map(([name], index) =>
    index < failedAt
      ? `${name} passed`
      : index === failedAt
        ? `${name} failed`
        : `${name} not checked`,
  );
  return {
    label: 'id_token checks: signature, iss, aud, exp, iat, sub, nonce',
    outcome: failedWith === undefined ? 'ok' : 'failed',
    value: outcomes.join(', '),
  };
}
