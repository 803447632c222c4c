import type {
  Expression,
  ExpressionBuilder,
  Insertable,
  Kysely,
  Selectable,
  SqlBool,
} from 'kysely';
import { compileOnce, oncePerDatabase } from './compile-once.js';
import { toMillis } from './columns.js';
import type { Database, SessionsTable } from './schema.js';
import type { SessionRecord, SessionStore } from './types.js';

const sessionColumns = [
  'id_hash',
  'user_row_id',
  'entry_id',
  'created_at',
  'last_seen_at',
  'expires_at',
  'sign_in_hash',
  'host',
  'factor_method',
  'factor_at',
] as const;

function toRecord(row: Selectable<SessionsTable>): SessionRecord {
  return {
    idHash: row.id_hash,
    userRowId: row.user_row_id,
    entryId: row.entry_id,
    createdAt: toMillis(row.created_at),
    lastSeenAt: toMillis(row.last_seen_at),
    expiresAt: toMillis(row.expires_at),
    ...(row.sign_in_hash === null ? {} : { signInHash: row.sign_in_hash }),
    ...(row.host === null ? {} : { host: row.host }),
    ...(row.factor_method === null || row.factor_at === null
      ? {}
      : { factor: { method: row.factor_method, at: toMillis(row.factor_at) } }),
  };
}

/** The queries of every sign-in and session check, compiled once (compile-once.ts). */
const hotQueries = oncePerDatabase((db) => ({
  create: compileOnce((row: Insertable<SessionsTable>) =>
    db.insertInto('sessions').values({
      id_hash: row.id_hash,
      user_row_id: row.user_row_id,
      entry_id: row.entry_id,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      expires_at: row.expires_at,
      sign_in_hash: row.sign_in_hash,
      host: row.host,
      factor_method: row.factor_method,
      factor_at: row.factor_at,
    }),
  ),
  get: compileOnce((values: { idHash: string }) =>
    db.selectFrom('sessions').select(sessionColumns).where('id_hash', '=', values.idHash),
  ),
  delete: compileOnce((values: { idHash: string }) =>
    db.deleteFrom('sessions').where('id_hash', '=', values.idHash),
  ),
}));

export function createSessionStore(db: Kysely<Database>): SessionStore {
  const queries = hotQueries(db);
  /** Deletes every session whose `column` holds `value`; resolves how many. */
  const deleteWhere = async (
    column: 'user_row_id' | 'entry_id',
    value: number | string,
  ): Promise<number> => {
    const result = await db.deleteFrom('sessions').where(column, '=', value).executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  return {
    async create(session) {
      await queries.create.execute(db, {
        id_hash: session.idHash,
        user_row_id: session.userRowId,
        entry_id: session.entryId,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
        expires_at: session.expiresAt,
        sign_in_hash: session.signInHash ?? null,
        host: session.host ?? null,
        factor_method: session.factor?.method ?? null,
        factor_at: session.factor?.at ?? null,
      });
    },

    async recordFactor(signIn, factor) {
      await db
        .updateTable('sessions')
        .set({ factor_method: factor.method, factor_at: factor.at })
        .where((eb) =>
          eb.or([eb('id_hash', '=', signIn.idHash), eb('sign_in_hash', '=', signIn.idHash)]),
        )
        .execute();
    },

    async get(idHash) {
      const row = (await queries.get.execute(db, { idHash })).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async touch(idHash, lastSeenAt) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: lastSeenAt })
        .where('id_hash', '=', idHash)
        .execute();
    },

    async delete(idHash) {
      await queries.delete.execute(db, { idHash });
    },

    deleteForUser: (userRowId) => deleteWhere('user_row_id', userRowId),

    deleteForEntry: (entryId) => deleteWhere('entry_id', entryId),

    /**
     * A session ends at `expiresAt` itself, and when idle since before
     * `idleBefore`: a sign-in's own session by its own activity, a host's
     * session by its sign-in's (which activity on any host keeps up), so an
     * unused host is not signed out while the sign-in lives.
     */
    async deleteExpired(now, idleBefore) {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.not(stillLive(eb, now, idleBefore)))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async countActive(now, idleBefore) {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('count'))
        .where((eb) => stillLive(eb, now, idleBefore))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}

/**
 * Whether a row of `sessions` is a session still valid at `now`, idle since
 * `idleBefore` at the earliest: a sign-in's own by its activity; a host's
 * (sign_in_hash set) while its sign-in's session is, whose idle limit is
 * the one that counts (sessions/session-service.ts resolveSession).
 */
function stillLive(
  eb: ExpressionBuilder<Database, 'sessions'>,
  now: number,
  idleBefore: number,
): Expression<SqlBool> {
  return eb.and([
    eb('sessions.expires_at', '>', now),
    eb.or([
      eb.and([
        eb('sessions.sign_in_hash', 'is', null),
        eb('sessions.last_seen_at', '>=', idleBefore),
      ]),
      eb.exists(
        eb
          .selectFrom('sessions as sign_in')
          .select('sign_in.id_hash')
          .whereRef('sign_in.id_hash', '=', 'sessions.sign_in_hash')
          .where('sign_in.expires_at', '>', now)
          .where('sign_in.last_seen_at', '>=', idleBefore),
      ),
    ]),
  ]);
}

/**
 * Deletes these rows of `sessions` and resolves how many there were: a
 * write-ahead record's removal by the sign-in that wrote it
 * (session-write-ahead.ts), which learns whether the sweep took it first.
 */
export async function deleteSessionRows(
  db: Kysely<Database>,
  idHashes: readonly string[],
): Promise<number> {
  // One statement a session, compiled once: a sign-in has one.
  const { delete: deleteOne } = hotQueries(db);
  let deleted = 0;
  for (const idHash of idHashes) {
    deleted += Number((await deleteOne.execute(db, { idHash })).numAffectedRows ?? 0);
  }
  return deleted;
}

/**
 * Deletes the rows of `sessions` made before `before` and resolves them: one
 * statement (DELETE … RETURNING), so two instances sweeping at once never
 * both take the same row.
 */
export async function takeSessionRowsMadeBefore(
  db: Kysely<Database>,
  before: number,
): Promise<SessionRecord[]> {
  const rows = await db
    .deleteFrom('sessions')
    .where('created_at', '<', before)
    .returning(sessionColumns)
    .execute();
  return rows.map(toRecord);
}
