import type { UserRecord } from '../storage/types.js';

/** The identity headers of SPEC 9, in lower case. */
export const identityHeaderNames = [
  'x-auth-request-user',
  'x-auth-request-email',
  'x-auth-request-preferred-username',
] as const;

/**
 * The signed-in user's identity headers as [name, value] pairs; a missing
 * attribute sends no header rather than an empty one.
 */
export function identityHeaders(user: UserRecord): [string, string][] {
  const headers: [string, string][] = [['x-auth-request-user', headerSafe(user.userId)]];
  if (user.email !== null) headers.push(['x-auth-request-email', headerSafe(user.email)]);
  if (user.userName !== null)
    headers.push(['x-auth-request-preferred-username', headerSafe(user.userName)]);
  return headers;
}

/**
 * Whether a header the client sent is a copy of an identity header: compared
 * case-insensitively and with `_` read as `-`, because some servers and
 * frameworks fold the one into the other.
 */
export function isIdentityHeader(name: string): boolean {
  const folded = name.toLowerCase().replaceAll('_', '-');
  return folded.startsWith('x-auth-request-');
}

/** Header values must be Latin-1 without controls; a value in another script is sent percent-encoded. */
function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value);
}
