import { hash } from 'node:crypto';
import type { RandomSource } from './random.js';
import { randomToken } from './random.js';

interface PkcePair {
  /** Kept server-side with the pending sign-in; sent only to the token endpoint. */
  readonly verifier: string;
  /** Sent to the browser in the authorization URL. */
  readonly challenge: string;
}

/**
 * RFC 7636 §4.1-4.2: a 43-character verifier from 32 random bytes and its
 * S256 challenge, BASE64URL(SHA256(ASCII(verifier))).
 */
export function createPkcePair(random: RandomSource): PkcePair {
  const verifier = randomToken(random, 32);
  return { verifier, challenge: pkceChallenge(verifier) };
}

export function pkceChallenge(verifier: string): string {
  return hash('sha256', Buffer.from(verifier, 'ascii'), 'base64url');
}
