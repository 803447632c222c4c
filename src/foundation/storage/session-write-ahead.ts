import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import {
  createSessionStore,
  deleteSessionRows,
  takeSessionRowsMadeBefore,
} from './session-store.js';
import type { SessionRecord, SessionStore } from './types.js';

/**
 * How long a write-ahead record waits for the sign-in that wrote it before
 * the sweep takes it over: far longer than a commit and one Redis write,
 * a Sentinel failover's included (replica-confirmed-writes.ts waits one
 * second for a replica, ioredis reconnects within a few).
 */
const writeAheadGraceMs = 30_000;

/**
 * The write-ahead records of sessions kept in Redis.
 *
 * Redis has no part in a sign-in's SQL transaction, so its session is
 * written once the transaction has committed (src/app/open-storage.ts). A
 * process that dies between the two, or a Redis write that fails, would
 * leave the sign-in's committed rows (its user, its audit event) with no
 * session. So the transaction also writes the session to the SQL
 * `sessions` table, which holds no sessions of its own when they live in
 * Redis: from the commit until Redis holds the session, that row is its
 * write-ahead record.
 *
 * - The sign-in deletes its records once Redis holds its sessions, and
 *   answers only if it found them all: a record gone means the sweep has
 *   taken it over (below), and the sign-in fails rather than hand out a
 *   cookie the sweep may be writing again at the same moment.
 * - The sweep (`recover`) takes the records older than `writeAheadGraceMs`,
 *   whose sign-in has died or failed, and writes their sessions to Redis.
 *   No browser holds such a session: the one sign-in that could have given
 *   its cookie failed. It exists so that every sign-in the audit log records
 *   as a success has its session, as on SQL alone.
 */
interface SessionWriteAhead {
  /** In the sign-in's transaction, through its SQL session store: records these sessions. */
  record(inTransaction: SessionStore, sessions: readonly SessionRecord[]): Promise<void>;
  /** Once Redis holds the sessions: deletes their records; throws if the sweep took one. */
  settle(sessions: readonly SessionRecord[]): Promise<void>;
  /** Writes the sessions of the records older than the grace to Redis; resolves how many. */
  recover(now: number): Promise<number>;
}

export function createSessionWriteAhead(
  db: Kysely<Database>,
  redisSessions: Pick<SessionStore, 'create'>,
): SessionWriteAhead {
  return {
    async record(inTransaction, sessions) {
      for (const session of sessions) await inTransaction.create(session);
    },

    async settle(sessions) {
      const deleted = await deleteSessionRows(
        db,
        sessions.map((session) => session.idHash),
      );
      if (deleted < sessions.length) {
        throw new Error(
          "the sweep took over this sign-in's session write after it waited too long; the sign-in is not answered",
        );
      }
    },

    async recover(now) {
      const taken = await takeSessionRowsMadeBefore(db, now - writeAheadGraceMs);
      let written = 0;
      for (const [index, session] of taken.entries()) {
        // One already over is only dropped.
        if (session.expiresAt <= now) continue;
        try {
          await redisSessions.create(session);
        } catch (error) {
          // Put back what is not written yet, for the next sweep.
          const sql = createSessionStore(db);
          for (const left of taken.slice(index)) await sql.create(left);
          throw error;
        }
        written += 1;
      }
      return written;
    },
  };
}
