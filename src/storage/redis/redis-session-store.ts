import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore } from '../types.js';
import { execOrThrow } from './redis-exec.js';

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
 * user of its sessions' id hashes, for deleteForUser. Needs Redis >= 7.0
 * (PEXPIRE NX/GT).
 *
 * The TTL is the lifetime measured from createdAt (the caller's "now"),
 * rather than PEXPIREAT expiresAt: the same in production, but immune to
 * clock skew between instance and Redis and to an injected test clock.
 */
export function createRedisSessionStore(redis: Redis, prefix: string): SessionStore {
  const sessionKey = (idHash: string) => `${prefix}session:${idHash}`;
  const userKey = (userRowId: number) => `${prefix}user-sessions:${userRowId}`;

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
      const users = userKey(session.userRowId);
      // PEXPIRE 0 would be an error; an already ended session lasts 1 ms.
      const ttl = Math.max(1, session.expiresAt - session.createdAt);
      await execOrThrow(
        redis
          .multi()
          .hset(sessionKey(session.idHash), fields)
          .pexpire(sessionKey(session.idHash), ttl)
          .sadd(users, session.idHash)
          // The set lives as long as the user's longest session: NX gives a
          // new set its first expiry, GT only ever extends it.
          .pexpire(users, ttl, 'NX')
          .pexpire(users, ttl, 'GT'),
      );
    },

    async get(idHash) {
      return toRecord(idHash, await redis.hgetall(sessionKey(idHash)));
    },

    async touch(idHash, lastSeenAt) {
      await redis.eval(touchScript, 1, sessionKey(idHash), String(lastSeenAt));
    },

    async delete(idHash) {
      const key = sessionKey(idHash);
      const userRowId = await redis.hget(key, 'userRowId');
      if (userRowId === null) {
        await redis.del(key);
        return;
      }
      await execOrThrow(redis.multi().del(key).srem(`${prefix}user-sessions:${userRowId}`, idHash));
    },

    async deleteForUser(userRowId) {
      const users = userKey(userRowId);
      const idHashes = await redis.smembers(users);
      if (idHashes.length === 0) return 0;
      // SREM of exactly these members, not DEL of the set: a session created
      // meanwhile keeps its place in the set.
      const [deleted] = await execOrThrow(
        redis
          .multi()
          .del(...idHashes.map(sessionKey))
          .srem(users, ...idHashes),
      );
      return typeof deleted === 'number' ? deleted : 0;
    },

    /** Redis drops each session at its absolute end by itself. */
    deleteExpired() {
      return Promise.resolve(0);
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
  return { idHash, userRowId, entryId: hash.entryId ?? null, createdAt, lastSeenAt, expiresAt };
}

function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
