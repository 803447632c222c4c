import type { Redis } from 'ioredis';
import type { PendingSignIn, PendingSignInStore } from '../types.js';

/**
 * Pending sign-ins in Redis: one JSON value per state hash, expiring with the
 * sign-in. GETDEL reads and removes in one step, so of two callbacks replaying
 * one state (on two instances at once) exactly one gets the record.
 */
export function createRedisPendingSignInStore(redis: Redis, prefix: string): PendingSignInStore {
  const pendingKey = (stateHash: string) => `${prefix}pending:${stateHash}`;

  return {
    async save(pending) {
      // The lifetime from createdAt (the caller's "now"), so neither clock skew
      // with Redis nor a test clock matters; at least 1 ms, since PX 0 is an error.
      const ttl = Math.max(1, pending.expiresAt - pending.createdAt);
      await redis.set(pendingKey(pending.stateHash), JSON.stringify(pending), 'PX', ttl);
    },

    async consume(stateHash) {
      const text = await redis.getdel(pendingKey(stateHash));
      return text === null ? undefined : parsePending(stateHash, text);
    },

    /** Redis drops each pending sign-in when it expires. */
    deleteExpired() {
      return Promise.resolve(0);
    },
  };
}

/**
 * Copies the known fields one by one, checking each type: a stored value that
 * is not a pending sign-in (an older format, a stray write) counts as none.
 */
export function parsePending(stateHash: string, text: string): PendingSignIn | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { entryId, returnTo, bindingHash, redirectUri, codeVerifier, createdAt, expiresAt } =
    record;
  if (
    typeof entryId !== 'string' ||
    typeof returnTo !== 'string' ||
    typeof bindingHash !== 'string' ||
    typeof redirectUri !== 'string' ||
    (typeof codeVerifier !== 'string' && codeVerifier !== null) ||
    typeof createdAt !== 'number' ||
    typeof expiresAt !== 'number'
  ) {
    return undefined;
  }
  return {
    stateHash,
    entryId,
    returnTo,
    bindingHash,
    redirectUri,
    codeVerifier,
    createdAt,
    expiresAt,
  };
}
