import type { Redis } from 'ioredis';
import type { HandoffTarget, PendingSignIn, PendingSignInStore } from '../types.js';
import { redisScript } from './redis-exec.js';
import type { DurableWrite } from './replica-confirmed-writes.js';
import { directWrites } from './replica-confirmed-writes.js';

// Saves the pending sign-in and keeps at most ARGV[5] of its browser's, this
// one included, in one atomic step. The browser's sorted set (score: createdAt)
// may name sign-ins already consumed or expired; those are dropped from it
// first, then the newest are kept and the rest deleted. The other members'
// keys are built in the script from ARGV[6]: one Redis server, not a cluster.
const saveCappedScript = `
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('zadd', KEYS[2], ARGV[3], ARGV[4])
redis.call('pexpire', KEYS[2], ARGV[2])
local kept = 1
for _, member in ipairs(redis.call('zrevrange', KEYS[2], 0, -1)) do
  if member ~= ARGV[4] then
    local key = ARGV[6] .. member
    if redis.call('exists', key) == 0 then
      redis.call('zrem', KEYS[2], member)
    elseif kept < tonumber(ARGV[5]) then
      kept = kept + 1
    else
      redis.call('del', key)
      redis.call('zrem', KEYS[2], member)
    end
  end
end
return kept`;

/**
 * Pending sign-ins in Redis: one JSON value per state hash, expiring with the
 * sign-in, and per browser a sorted set of its state hashes for the
 * per-browser cap. GETDEL reads and removes in one step, so of two callbacks
 * replaying one state (on two instances at once) exactly one gets the record.
 * Saves and consumptions are `durable` writes: behind Sentinels, answered
 * only once a replica holds them, so a consumed sign-in never comes back
 * after a failover to be replayed, nor does a started one vanish.
 */
export function createRedisPendingSignInStore(
  redis: Redis,
  prefix: string,
  durable: DurableWrite = directWrites(redis),
): PendingSignInStore {
  const pendingPrefix = `${prefix}pending:`;
  const pendingKey = (stateHash: string) => `${pendingPrefix}${stateHash}`;
  const browserKey = (bindingHash: string) => `${prefix}pending-browser:${bindingHash}`;
  const saveCapped = redisScript(redis, saveCappedScript);

  return {
    async save(pending, perBrowser) {
      // The lifetime from createdAt (the caller's "now"), so neither clock skew
      // with Redis nor a test clock matters; at least 1 ms, since PX 0 is an error.
      const ttl = Math.max(1, pending.expiresAt - pending.createdAt);
      const record = JSON.stringify(pending);
      if (perBrowser === undefined) {
        await durable((on) => on.set(pendingKey(pending.stateHash), record, 'PX', ttl));
        return;
      }
      await durable((on) =>
        saveCapped(
          [pendingKey(pending.stateHash), browserKey(pending.bindingHash)],
          [
            record,
            String(ttl),
            String(pending.createdAt),
            pending.stateHash,
            String(perBrowser),
            pendingPrefix,
          ],
          on,
        ),
      );
    },

    async consume(stateHash) {
      const text = await durable((on) => on.getdel(pendingKey(stateHash)));
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
  // Absent in values stored before OpenID Connect entries.
  const nonce = record.nonce ?? null;
  const handoff = handoffOf(record.handoff);
  if (
    typeof entryId !== 'string' ||
    typeof returnTo !== 'string' ||
    typeof bindingHash !== 'string' ||
    typeof redirectUri !== 'string' ||
    (typeof codeVerifier !== 'string' && codeVerifier !== null) ||
    typeof createdAt !== 'number' ||
    typeof expiresAt !== 'number' ||
    (typeof nonce !== 'string' && nonce !== null) ||
    handoff === null
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
    ...(nonce === null ? {} : { nonce }),
    ...(handoff === undefined ? {} : { handoff }),
  };
}

/** A handoff's target as stored; undefined when absent, null when malformed. */
function handoffOf(value: unknown): HandoffTarget | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return null;
  const { host, signInHash } = value as Record<string, unknown>;
  // Absent in values stored before the user id was kept (a handoff lives 60 s).
  const userId = (value as Record<string, unknown>).userId ?? null;
  return typeof host === 'string' &&
    typeof signInHash === 'string' &&
    (typeof userId === 'string' || userId === null)
    ? { host, signInHash, userId }
    : null;
}
