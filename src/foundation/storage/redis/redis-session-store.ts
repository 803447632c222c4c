import type { ChainableCommander, Redis } from 'ioredis';
import type { SessionFactor, SessionRecord, SessionStore } from '../types.js';
import { execOrThrow, redisScript } from './redis-exec.js';
import type { DurableWrite } from './replica-confirmed-writes.js';
import { directWrites } from './replica-confirmed-writes.js';

// Writes lastSeenAt only while the session exists: a plain HSET on a key that
// has just expired would recreate it without a TTL, a session that never ends.
const touchScript = `
if redis.call('exists', KEYS[1]) == 1 then
  redis.call('hset', KEYS[1], 'lastSeenAt', ARGV[1])
end
return 0`;

// Writes the second factor on a sign-in's session and on the host sessions
// made from it, found among the user's sessions; only on sessions that still
// exist, for the reason of touchScript.
const factorScript = `
for _, idHash in ipairs(redis.call('smembers', KEYS[1])) do
  local key = ARGV[1] .. idHash
  if idHash == ARGV[2] or redis.call('hget', key, 'signInHash') == ARGV[2] then
    if redis.call('exists', key) == 1 then
      redis.call('hset', key, 'factorMethod', ARGV[3], 'factorAt', ARGV[4])
    end
  end
end
return 0`;

/** The Redis session store, and the writes of a unit of work held back until it commits. */
interface RedisSessionStore extends SessionStore {
  /**
   * A session store for one SQL transaction (Storage.writeTogether): its
   * `create` and `delete` write nothing yet, `apply` writes them, in order,
   * in one MULTI once the transaction has committed. Redis has no part in
   * the transaction, and a session written before a commit that then fails
   * would outlive it (naming a user row that may not exist, the browser's
   * earlier session ended for nothing).
   */
  heldBack(): HeldBackSessions;
}

export interface HeldBackSessions {
  /**
   * Reads see this unit's own writes first. Its other writes (touch and
   * the bulk deletes), which no unit of work makes, are refused.
   */
  readonly sessions: SessionStore;
  /** The sessions this unit made, but for those it ended again. */
  created(): SessionRecord[];
  /** Writes what `sessions` held back; resolves the id hashes of the sessions it ended. */
  apply(): Promise<readonly string[]>;
}

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
 *
 * A new session, an ended one and a second factor are `durable` writes:
 * behind Sentinels, answered only once a replica holds them, so a failover
 * neither loses a sign-in nor undoes a sign-out (replica-confirmed-writes.ts).
 * Reads and touch (lastSeenAt, on the session check's path) stay on `redis`
 * with no added round trip.
 */
export function createRedisSessionStore(
  redis: Redis,
  prefix: string,
  durable: DurableWrite = directWrites(redis),
): RedisSessionStore {
  const sessionKey = (idHash: string) => `${prefix}session:${idHash}`;
  const userKey = (userRowId: number | string) => `${prefix}user-sessions:${userRowId}`;
  const entryKey = (entryId: string) => `${prefix}entry-sessions:${entryId}`;
  const touchSession = redisScript(redis, touchScript);
  const recordSessionFactor = redisScript(redis, factorScript);

  /** Deletes these sessions and takes them out of `set`; resolves how many existed. */
  const deleteListed = async (set: string, idHashes: readonly string[]): Promise<number> => {
    if (idHashes.length === 0) return 0;
    // SREM of exactly these members, not DEL of the set: a session created
    // meanwhile keeps its place in the set.
    const [deleted] = await durable((on) =>
      execOrThrow(
        on
          .multi()
          .del(...idHashes.map(sessionKey))
          .srem(set, ...idHashes),
      ),
    );
    return typeof deleted === 'number' ? deleted : 0;
  };

  /** Queues the writes of a new session on `write`. */
  const queueCreate = (write: ChainableCommander, session: SessionRecord): void => {
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
    if (session.factor !== undefined) {
      fields.factorMethod = session.factor.method;
      fields.factorAt = String(session.factor.at);
    }
    // PEXPIRE 0 would be an error; an already ended session lasts 1 ms.
    const ttl = Math.max(1, session.expiresAt - session.createdAt);
    write.hset(sessionKey(session.idHash), fields).pexpire(sessionKey(session.idHash), ttl);
    const sets = [userKey(session.userRowId)];
    if (session.entryId !== null) sets.push(entryKey(session.entryId));
    for (const set of sets) {
      // A set lives as long as its longest session: NX gives a new set its
      // first expiry, GT only ever extends it.
      write.sadd(set, session.idHash).pexpire(set, ttl, 'NX').pexpire(set, ttl, 'GT');
    }
  };

  /** A session's user and entry (never changed once written), for the sets that list it. */
  interface Owner {
    readonly userRowId?: number | string | null | undefined;
    readonly entryId?: string | null | undefined;
  }
  const readOwner = async (idHash: string): Promise<Owner> => {
    const [userRowId, entryId] = await redis.hmget(sessionKey(idHash), 'userRowId', 'entryId');
    return { userRowId, entryId };
  };

  /** Queues the end of a session on `write`, and its removal from the sets that list it. */
  const queueDelete = (write: ChainableCommander, idHash: string, owner: Owner): void => {
    write.del(sessionKey(idHash));
    if (owner.userRowId !== undefined && owner.userRowId !== null)
      write.srem(userKey(owner.userRowId), idHash);
    if (typeof owner.entryId === 'string') write.srem(entryKey(owner.entryId), idHash);
  };

  const store: SessionStore = {
    async create(session) {
      await durable((on) => {
        const write = on.multi();
        queueCreate(write, session);
        return execOrThrow(write);
      });
    },

    async get(idHash) {
      return toRecord(idHash, await redis.hgetall(sessionKey(idHash)));
    },

    async touch(idHash, lastSeenAt) {
      await touchSession([sessionKey(idHash)], [String(lastSeenAt)]);
    },

    async recordFactor(signIn, factor) {
      await durable((on) =>
        recordSessionFactor(
          [userKey(signIn.userRowId)],
          [`${prefix}session:`, signIn.idHash, factor.method, String(factor.at)],
          on,
        ),
      );
    },

    async delete(idHash) {
      const owner = await readOwner(idHash);
      await durable((on) => {
        const write = on.multi();
        queueDelete(write, idHash, owner);
        return execOrThrow(write);
      });
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

  return {
    ...store,
    heldBack() {
      const steps: ((write: ChainableCommander) => void)[] = [];
      const ended: string[] = [];
      // What this unit has written so far, by id hash: undefined once deleted.
      const written = new Map<string, SessionRecord | undefined>();
      const refused = (what: string) => () =>
        Promise.reject(new Error(`sessions.${what} is not held back until a commit`));
      return {
        sessions: {
          create(session) {
            steps.push((write) => {
              queueCreate(write, session);
            });
            written.set(session.idHash, session);
            return Promise.resolve();
          },
          get(idHash) {
            return written.has(idHash) ? Promise.resolve(written.get(idHash)) : store.get(idHash);
          },
          async delete(idHash) {
            // The sets to leave are read now: a session's user and entry
            // never change, and DEL and SREM of one ended meanwhile do nothing.
            const owner = written.has(idHash)
              ? (written.get(idHash) ?? {})
              : await readOwner(idHash);
            steps.push((write) => {
              queueDelete(write, idHash, owner);
            });
            written.set(idHash, undefined);
            ended.push(idHash);
          },
          touch: refused('touch'),
          recordFactor: refused('recordFactor'),
          deleteForUser: refused('deleteForUser'),
          deleteForEntry: refused('deleteForEntry'),
          deleteExpired: refused('deleteExpired'),
          countActive: refused('countActive'),
        },
        created() {
          return [...written.values()].filter((session) => session !== undefined);
        },
        async apply() {
          if (steps.length === 0) return [];
          await durable((on) => {
            const write = on.multi();
            for (const step of steps) step(write);
            return execOrThrow(write);
          });
          return ended;
        },
      };
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
    ...factorOf(hash),
  };
}

function factorOf(hash: Record<string, string>): { factor?: SessionFactor } {
  const at = integer(hash.factorAt);
  return hash.factorMethod === undefined || at === undefined
    ? {}
    : { factor: { method: hash.factorMethod, at } };
}

function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
