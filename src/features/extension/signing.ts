import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signatures between the gateway and an extension service
 * (docs/extension.md#signatures). Both directions are HMAC-SHA256 over a canonical text
 * of a few lines; a body enters only as its SHA-256, so the text is the same
 * however either side serialised its JSON.
 *
 * A request is signed over its method, path, timestamp, nonce and body. The
 * answer is signed over its status, its own timestamp, its body and the
 * request's nonce: an answer recorded earlier cannot be replayed to another
 * call, because no two calls share a nonce.
 */
export const signatureHeaders = {
  timestamp: 'x-ssogate-timestamp',
  nonce: 'x-ssogate-nonce',
  signature: 'x-ssogate-signature',
} as const;

/** How far a timestamp may be from the receiver's clock, either way. */
export const replayWindowMs = 5 * 60_000;

const signatureVersion = 'v1';

interface SignedRequestParts {
  readonly method: string;
  /** The URL's path as sent, e.g. /ext/authorize-url (no query: the contract uses none). */
  readonly path: string;
  /** Unix time in whole seconds, as sent in the timestamp header. */
  readonly timestamp: string;
  readonly nonce: string;
  readonly body: string;
}

interface SignedAnswerParts {
  readonly status: number;
  readonly timestamp: string;
  /** The nonce of the request this answers. */
  readonly nonce: string;
  readonly body: string;
}

export function requestSigningText(parts: SignedRequestParts): string {
  return [
    'SSOGATE-HMAC-SHA256-REQUEST',
    parts.method.toUpperCase(),
    parts.path,
    parts.timestamp,
    parts.nonce,
    sha256Hex(parts.body),
  ].join('\n');
}

export function answerSigningText(parts: SignedAnswerParts): string {
  return [
    'SSOGATE-HMAC-SHA256-ANSWER',
    String(parts.status),
    parts.timestamp,
    parts.nonce,
    sha256Hex(parts.body),
  ].join('\n');
}

/** The signature header's value: `v1=` and the HMAC in lowercase hex. */
export function sign(secret: string, text: string): string {
  return `${signatureVersion}=${createHmac('sha256', secret).update(text, 'utf8').digest('hex')}`;
}

/** Compares in constant time, so the time taken tells nothing about how much matched. */
export function signatureMatches(secret: string, text: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, text), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether a timestamp header (whole seconds) is inside the replay window around `now`. */
export function timestampFresh(timestamp: string, now: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Number(timestamp) * 1000 - now) <= replayWindowMs;
}

export function unixSeconds(now: number): string {
  return String(Math.floor(now / 1000));
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
