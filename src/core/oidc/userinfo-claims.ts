import { SsogateError } from '../errors/ssogate-error.js';
import { parseUntrustedJson } from '../expression/safe-json.js';
import type { UserInfoSource } from './oidc-input.js';
import type { Claims } from './id-token-claims.js';

/**
 * The body the user mapping of an OpenID Connect entry reads as `$response`
 * (docs/entries.md#openid-connect): the verified id_token's claims, the
 * user-info answer, or the claims with the user-info answer's keys over them.
 * A user-info answer must be about the id_token's subject (OpenID Connect
 * Core §5.3.2), else its attributes would be another person's.
 */
export function userInfoBody(
  source: UserInfoSource,
  claims: Claims,
  userInfoAnswer: string | undefined,
  secrets: readonly string[],
): string {
  if (source === 'claims' || userInfoAnswer === undefined) return JSON.stringify(claims);
  const answer = parseUntrustedJson(userInfoAnswer, { secrets });
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new SsogateError('response_not_json', 'the user-info answer is not a JSON object');
  }
  const fields = answer as Readonly<Record<string, unknown>>;
  if (!Object.hasOwn(fields, 'sub') || fields.sub !== claims.sub) {
    throw new SsogateError(
      'userinfo_subject_mismatch',
      "the user-info answer's sub is not the id_token's (OpenID Connect Core §5.3.2)",
    );
  }
  if (source === 'userinfo') return userInfoAnswer;
  const merged: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(claims)) merged[key] = value;
  for (const [key, value] of Object.entries(fields)) merged[key] = value;
  return JSON.stringify(merged);
}
