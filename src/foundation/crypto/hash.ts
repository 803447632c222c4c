import { createHash } from 'node:crypto';

/**
 * SHA-256 of a UTF-8 string, base64url without padding: how session ids,
 * states, binding cookies and API tokens are stored, so the database never
 * holds a value that would work if read back.
 */
export function sha256Base64url(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}
