import { hash } from 'node:crypto';

/**
 * SHA-256 of a UTF-8 string, base64url without padding: how session ids,
 * states, binding cookies and API tokens are stored, so the database never
 * holds a value that would work if read back. One call, not a Hash object
 * fed and finished: a sign-in hashes a handful of short strings, and the
 * object cost three times the digest.
 */
export function sha256Base64url(text: string): string {
  return hash('sha256', text, 'base64url');
}
