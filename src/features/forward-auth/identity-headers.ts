import type { UserRecord } from '../../foundation/storage/types.js';

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

/** Printable ASCII but `%` and `,`, with no space at either end (a single space is encoded too). */
const sentAsItIs =
  /^(?:[\x21-\x24\x26-\x2b\x2d-\x7e](?:[\x20-\x24\x26-\x2b\x2d-\x7e]*[\x21-\x24\x26-\x2b\x2d-\x7e])?)?$/;

/**
 * The one encoding of every identity header value, on /_sso/auth and in the
 * proxy alike (docs/proxy.md): a value made only of printable ASCII other
 * than `%` and `,` (U+0020 to U+007E), neither starting nor ending with a
 * space, is sent as it is; any other value is sent whole as its UTF-8
 * percent-encoding (encodeURIComponent, RFC 3986 §2.1). Each exception keeps
 * the mapping one-to-one for what the application reads:
 * - `%`: decodeURIComponent gives every value back, so `coll%C3%A9` and
 *   `collé`, or `adm%69n` and `admin`, never reach the application as one;
 * - a space at either end: every HTTP parser trims it (RFC 9110 §5.5), so
 *   ` alice` would arrive as `alice`, another user;
 * - `,`: most frameworks read a header as a comma-separated list (RFC 9110
 *   §5.6.1), so `x, admin` would arrive as the two values `x` and `admin`.
 * Header values cannot carry other characters as they are (RFC 9110 §5.5).
 */
export function encodeIdentityValue(value: string): string {
  if (sentAsItIs.test(value)) return value;
  // A lone surrogate (never stored by a sign-in: core/user/coerce.ts) would
  // make encodeURIComponent throw; it is sent as U+FFFD instead.
  return encodeURIComponent(value.toWellFormed());
}
