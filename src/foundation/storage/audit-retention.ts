import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database, SqlDialect } from './schema.js';
import type { AuditPruneBatch } from './types.js';

/**
 * The advisory-lock key of audit pruning: "audit" in ASCII, read as an
 * integer. Distinct from the migration and sweep locks.
 */
export const AUDIT_PRUNE_LOCK_KEY = '418413479284';

/**
 * Deletes one batch of audit events: the oldest (by id) of those older than
 * `before` or beyond the newest `keepRows`, at most `limit` of them, in one
 * short statement. A small batch holds SQLite's write lock, or PostgreSQL's
 * row locks, only briefly, so sign-ins writing their own audit events go on
 * between batches. On PostgreSQL the batch runs under a transaction-level
 * advisory lock taken without waiting: an instance that finds another pruning
 * returns undefined and leaves the work to it.
 */
export async function pruneAuditBatch(
  db: Kysely<Database>,
  dialect: SqlDialect,
  batch: AuditPruneBatch,
): Promise<number | undefined> {
  if (batch.before === undefined && batch.keepRows === undefined) return 0;
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${AUDIT_PRUNE_LOCK_KEY}::bigint) as locked`.execute(trx);
      if (rows[0]?.locked !== true) return undefined;
    }
    // Ids only grow: everything below the keepRows-th newest id is beyond the cap.
    const keepFrom =
      batch.keepRows === undefined
        ? undefined
        : (
            await trx
              .selectFrom('audit_events')
              .select('id')
              .orderBy('id', 'desc')
              .limit(1)
              .offset(batch.keepRows - 1)
              .executeTakeFirst()
          )?.id;
    const { before } = batch;
    if (before === undefined && keepFrom === undefined) return 0;
    const result = await trx
      .deleteFrom('audit_events')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('audit_events')
          .select('id')
          .where((w) =>
            w.or([
              ...(before === undefined ? [] : [w('at', '<', before)]),
              ...(keepFrom === undefined ? [] : [w('id', '<', keepFrom)]),
            ]),
          )
          .orderBy('id')
          .limit(batch.limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
