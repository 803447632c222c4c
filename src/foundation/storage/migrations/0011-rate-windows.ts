import type { Kysely, Migration } from 'kysely';

/**
 * Counters of failed password attempts (src/features/rate-limit/failure-limit.ts) in
 * the database, so that the local sign-in limit holds for every instance
 * sharing it when there is no Redis. One row per counter; a row whose window
 * is over is reset by the next failure and deleted by the expiry sweep.
 */
export const rateWindowsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_windows')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('count', 'integer', (column) => column.notNull())
      .addColumn('ends_at', 'bigint', (column) => column.notNull())
      .addColumn('last_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('rate_windows_ends_at')
      .on('rate_windows')
      .column('ends_at')
      .execute();
  },
};
