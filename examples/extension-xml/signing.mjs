// The ssogate extension contract's signatures (docs/extension.md), in plain
// Node.js: verify the gateway's request, sign the answer.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const replayWindowMs = 5 * 60_000;

const sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

export function sign(secret, text) {
  return `v1=${createHmac('sha256', secret).update(text, 'utf8').digest('hex')}`;
}

function matches(secret, text, signature) {
  const expected = Buffer.from(sign(secret, text), 'utf8');
  const given = Buffer.from(String(signature), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Checks a request from the gateway: its timestamp is within five minutes,
 * its nonce was not seen in that time, and its signature covers the method,
 * path, timestamp, nonce and body. Returns a reason to refuse, or undefined.
 */
export function verifyRequest(secret, { method, path, headers, body }, seenNonces, now) {
  const timestamp = headers['x-ssogate-timestamp'] ?? '';
  const nonce = headers['x-ssogate-nonce'] ?? '';
  const signature = headers['x-ssogate-signature'] ?? '';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) * 1000 - now) > replayWindowMs) {
    return 'the timestamp is missing or outside the five-minute window';
  }
  if (!/^[\w-]{16,128}$/.test(nonce)) return 'the nonce is missing';
  const text = [
    'SSOGATE-HMAC-SHA256-REQUEST',
    method,
    path,
    timestamp,
    nonce,
    sha256Hex(body),
  ].join('\n');
  if (!matches(secret, text, signature)) return 'the signature does not match';
  for (const [seen, expiresAt] of seenNonces) if (expiresAt < now) seenNonces.delete(seen);
  if (seenNonces.has(nonce)) return 'the nonce was used already (a replayed request)';
  seenNonces.set(nonce, now + 2 * replayWindowMs);
  return undefined;
}

/** The headers that sign an answer to the request that carried `nonce`. */
export function answerHeaders(secret, { status, nonce, body }, now) {
  const timestamp = String(Math.floor(now / 1000));
  const text = [
    'SSOGATE-HMAC-SHA256-ANSWER',
    String(status),
    timestamp,
    nonce,
    sha256Hex(body),
  ].join('\n');
  return { 'x-ssogate-timestamp': timestamp, 'x-ssogate-signature': sign(secret, text) };
}
