const day = 86_400_000;

/** A hundred years: far enough for any token, near enough to stay a valid date. */
export const mostDays = 36_500;

/**
 * The "valid for" field as whole days, or undefined when it holds none
 * (empty, a fraction, zero or less, or past a hundred years).
 */
export function wholeDays(text: string): number | undefined {
  const days = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(days) && days >= 1 && days <= mostDays
    ? days
    : undefined;
}

/**
 * The `expiresAt` POST /_sso/api/tokens takes (an ISO 8601 time in the
 * future, src/features/admin-api/token-routes.ts) for a token valid `days` days from
 * `now`, as `ssogate token create --expires-in 30d` counts them.
 */
export function expiresAtAfter(days: number, now: number): string {
  return new Date(now + days * day).toISOString();
}

/** Whether a token's expiry has come: from then on the gateway answers api_token_expired. */
export function isExpired(expiresAt: string | null, now: number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}
