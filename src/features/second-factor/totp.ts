import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238) over HOTP (RFC 4226), with
 * node:crypto alone: HMAC-SHA-1, 30-second steps, 6 digits, what every
 * authenticator application reads from an otpauth:// URI. Small enough to
 * read whole, so no library is needed for it.
 */

/** The step length, seconds (RFC 6238 §4.1, X = 30). */
const totpStepSeconds = 30;
const digits = 6;
/** Steps accepted either side of the current one, for clocks that drift (RFC 6238 §5.2). */
const driftSteps = 1;

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Base32 without padding (RFC 4648 §6), as otpauth:// URIs carry secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet.charAt((buffer >>> (bits - 5)) & 31);
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += base32Alphabet.charAt((buffer << (5 - bits)) & 31);
  return out;
}

/** Base32 read back, case and spaces ignored; undefined for any other character. */
export function base32Decode(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = base32Alphabet.indexOf(char);
    if (value === -1) return undefined;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
      buffer &= (1 << bits) - 1;
    }
  }
  return Uint8Array.from(out);
}

/** The HOTP value of `counter` (RFC 4226 §5.3: dynamic truncation), `length` digits. */
export function hotp(secret: Uint8Array, counter: number, length = digits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fff_ffff;
  return String(binary % 10 ** length).padStart(length, '0');
}

/** The time step of an instant, milliseconds since the epoch (RFC 6238 §4.2, T0 = 0). */
export function timeStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / totpStepSeconds);
}

/** The code of the step holding `nowMs`, as an authenticator shows it. */
export function totpCode(secret: Uint8Array, nowMs: number): string {
  return hotp(secret, timeStep(nowMs));
}

/**
 * The time step whose code `code` is, within one step of now, or undefined.
 * Every candidate step is compared in constant time, so the answer's timing
 * says nothing of which digits were right. The caller refuses a step not
 * after the last one used (RFC 6238 §5.2: a code is accepted once).
 */
export function matchingStep(secret: Uint8Array, code: string, nowMs: number): number | undefined {
  const typed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(typed)) return undefined;
  const now = timeStep(nowMs);
  let matched: number | undefined;
  for (let step = now - driftSteps; step <= now + driftSteps; step += 1) {
    const expected = Buffer.from(hotp(secret, step));
    if (timingSafeEqual(expected, Buffer.from(typed)) && matched === undefined) matched = step;
  }
  return matched;
}

/**
 * The otpauth:// URI an authenticator application reads (Key URI Format,
 * github.com/google/google-authenticator/wiki/Key-Uri-Format): the issuer
 * and the account as its label, the secret in base32, and the defaults said
 * aloud.
 */
export function otpauthUri(issuer: string, account: string, secret: Uint8Array): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(digits),
    period: String(totpStepSeconds),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
