import type { UserRecord } from '../storage/types.js';

/** The identity headers (docs/proxy.md), in lower case. */
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
  const headers: [string, string][] = [['x-auth-request-user', encodeIdentityValue(user.userId)]];
  if (user.email !== null) headers.push(['x-auth-request-email', encodeIdentityValue(user.email)]);
  if (user.userName !== null)
    headers.push(['x-auth-request-preferred-username', encodeIdentityValue(user.userName)]);
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

/**
 * The one encoding of every identity header value, on /_sso/auth and in the
 * proxy alike (docs/proxy.md): a value made only of printable ASCII other
 * than `%` (U+0020 to U+007E) is sent as it is; any other value is sent as
 * its UTF-8 percent-encoding (encodeURIComponent, RFC 3986 §2.1). Encoding
 * `%` as well makes the mapping one-to-one: decodeURIComponent gives every
 * value back, so `coll%C3%A9` and `collé`, or `adm%69n` and `admin`, never
 * reach the application as one header. Header values cannot carry other
 * characters as they are (RFC 9110 §5.5).
 */
export function encodeIdentityValue(value: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(value)) return value;
  // A lone surrogate (never stored by a sign-in: core/user/coerce.ts) would
  // make encodeURIComponent throw; it is sent as U+FFFD instead.
  return encodeURIComponent(value.toWellFormed());
}
