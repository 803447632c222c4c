/**
 * Reference ids tie an error page to its log line. A user reads one aloud or
 * types it into a ticket, so it is short and uses Crockford's base32 alphabet,
 * which leaves out I, L, O and U (easily misread or obscene).
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const REFERENCE_ID_LENGTH = 10;
export const REFERENCE_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{10}$/;

/**
 * 10 characters, 50 random bits: unique enough to find one failure among a
 * day's logs, not a secret. One byte per character; 256 is a multiple of 32,
 * so `byte % 32` stays uniform.
 */
export function newReferenceId(random: (n: number) => Uint8Array): string {
  const bytes = random(REFERENCE_ID_LENGTH);
  if (bytes.length !== REFERENCE_ID_LENGTH) {
    throw new RangeError(`random source returned ${bytes.length} of ${REFERENCE_ID_LENGTH} bytes`);
  }
  let id = '';
  for (const byte of bytes) id += ALPHABET.charAt(byte % 32);
  return id;
}
