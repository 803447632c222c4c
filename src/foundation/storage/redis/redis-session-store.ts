import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore } from '../types.js';
import { execOrThrow, redisScript } from './redis-exec.js';

// Writes lastSeenAt only while the session exists: a plain HSET on a key that
// has just expired would recreate it without a TTL, a session that never ends.
const touchScript = `
if redis.call('exists', KEYS[1]) == 1 then
  redis.call('hset', KEYS[1], 'lastSeenAt', ARGV[1])
end
return 0`;

/**
 * Sessions in Redis: one hash per session, expiring at the session's absolute
 * end (the idle limit is the session service's to check), and one set per
 * user, and one per entry, of its sessions' id hashes, for deleteForUser and
 * deleteForEntry. A set may name sessions already ended; ending them again
 * deletes and counts nothing. Needs Redis >= 7.0 (PEXPIRE NX/GT).
 *
 * The TTL is the lifetime measured from createdAt (the caller's "now"),
 * rather than PEXPIREAT expiresAt: the same in production, but immune to
 * clock skew between instance and Redis and to an injected test clock.
 */
export function createRedisSessionStore(redis: Redis, prefix: string): SessionStore {
  const sessionKey = (idHash: string) => `${prefix}session:${idHash}`;
  const userKey = (userRowId: number | string) => `${prefix}user-sessions:${userRowId}`;
  const entryKey = (entryId: string) => `${prefix}entry-sessions:${entryId}`;
  const touchSession = redisScript(redis, touchScript);

  /** Deletes these sessions and takes them out of `set`; resolves how many existed. */
  const deleteListed = async (set: string, idHashes: readonly string[]): Promise<number> => {
    if (idHashes.length === 0) return 0;
    // SREM of exactly these members, not DEL of the set: a session created
    // meanwhile keeps its place in the set.
    const [deleted] = await execOrThrow(
      redis
        .multi()
        .del(...idHashes.map(sessionKey))
        .srem(set, ...idHashes),
    );
    return typeof deleted === 'number' ? deleted : 0;
  };

  return {
    async create(session) {
      const fields: Record<string, string> = {
        userRowId: String(session.userRowId),
        createdAt: String(session.createdAt),
        lastSeenAt: String(session.lastSeenAt),
        expiresAt: String(session.expiresAt),
      };
      // A null entryId (local sign-in) is stored as the field's absence.
      if (session.entryId !== null) fields.entryId = session.entryId;
      if (session.signInHash !== undefined) fields.signInHash = session.signInHash;
      if (session.host !== undefined) fields.host = session.host;
      // PEXPIRE 0 would be an error; an already ended session lasts 1 ms.
      const ttl = Math.max(1, session.expiresAt - session.createdAt);
      const write = redis
        .multi()
        .hset(sessionKey(session.idHash), fields)
        .pexpire(sessionKey(session.idHash), ttl);
      const sets = [userKey(session.userRowId)];
      if (session.entryId !== null) sets.push(entryKey(session.entryId));
      for (const set of sets) {
        // A set lives as long as its longest session: NX gives a new set its
        // first expiry, GT only ever extends it.
        write.sadd(set, session.idHash).pexpire(set, ttl, 'NX').pexpire(set, ttl, 'GT');
      }
      await execOrThrow(write);
    },

    async get(idHash) {
      return toRecord(idHash, await redis.hgetall(sessionKey(idHash)));
    },

    async touch(idHash, lastSeenAt) {
      await touchSession([sessionKey(idHash)], [String(lastSeenAt)]);
    },

    async delete(idHash) {
      const key = sessionKey(idHash);
      const [userRowId, entryId] = await redis.hmget(key, 'userRowId', 'entryId');
      const write = redis.multi().del(key);
      if (typeof userRowId === 'string') write.srem(userKey(userRowId), idHash);
      if (typeof entryId === 'string') write.srem(entryKey(entryId), idHash);
      await execOrThrow(write);
    },

    async deleteForUser(userRowId) {
      const users = userKey(userRowId);
      return deleteListed(users, await redis.smembers(users));
    },

    async deleteForEntry(entryId) {
      const entries = entryKey(entryId);
      return deleteListed(entries, await redis.smembers(entries));
    },

    /** Redis drops each session at its absolute end by itself. */
    deleteExpired() {
      return Promise.resolve(0);
    },

    /**
     * The session keys Redis still holds (it drops them at their end): a
     * SCAN, in steps that never block Redis for long, so for the metrics'
     * occasional gauge only.
     */
    async countActive() {
      let count = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}session:*`, 'COUNT', 1000);
        count += keys.length;
        cursor = next;
      } while (cursor !== '0');
      return count;
    },
  };
}

/** Reads the hash back field by field; anything malformed counts as no session. */
function toRecord(idHash: string, hash: Record<string, string>): SessionRecord | undefined {
  const userRowId = integer(hash.userRowId);
  const createdAt = integer(hash.createdAt);
  const lastSeenAt = integer(hash.lastSeenAt);
  const expiresAt = integer(hash.expiresAt);
  if (
    userRowId === undefined ||
    createdAt === undefined ||
    lastSeenAt === undefined ||
    expiresAt === undefined
  ) {
    return undefined;
  }
  return {
    idHash,
    userRowId,
    entryId: hash.entryId ?? null,
    createdAt,
    lastSeenAt,
    expiresAt,
    ...(hash.signInHash === undefined ? {} : { signInHash: hash.signInHash }),
    ...(hash.host === undefined ? {} : { host: hash.host }),
  };
}

function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
