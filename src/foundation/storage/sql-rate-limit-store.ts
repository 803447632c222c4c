import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { hitOneByOne } from './hit-in-turn.js';
import type { Database } from './schema.js';
import type { RateLimitStore } from './types.js';

/**
 * Rate-limit counters in the `rate_windows` table, shared by every instance
 * of one database. A hit is one statement, an insert that on conflict either
 * counts one more or, once the window is over, opens a new one; the row lock
 * of the upsert makes concurrent hits count once each, on SQLite and
 * PostgreSQL alike. `now` is the caller's clock, as everywhere in storage.
 */
export function createSqlRateLimitStore(db: Kysely<Database>) {
  const store: RateLimitStore & { deleteEnded(now: number): Promise<void> } = {
    async hit(key, now, windowMs) {
      const endsAt = now + Math.max(1, windowMs);
      const over = sql<boolean>`rate_windows.ends_at <= ${now}`;
      const row = await db
        .insertInto('rate_windows')
        .values({ key, count: 1, ends_at: endsAt, last_at: now })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            count: sql<number>`case when ${over} then 1 else rate_windows.count + 1 end`,
            ends_at: sql<number>`case when ${over} then ${endsAt} else rate_windows.ends_at end`,
            last_at: now,
          }),
        )
        .returning(['count', 'ends_at'])
        .executeTakeFirstOrThrow();
      return { count: row.count, endsAt: Number(row.ends_at), lastAt: now };
    },

    hitInTurn(hits, now) {
      return hitOneByOne(store, hits, now);
    },

    async peek(key, now) {
      const row = await db
        .selectFrom('rate_windows')
        .select(['count', 'ends_at', 'last_at'])
        .where('key', '=', key)
        .where('ends_at', '>', now)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : { count: row.count, endsAt: Number(row.ends_at), lastAt: Number(row.last_at) };
    },

    async reset(key) {
      await db.deleteFrom('rate_windows').where('key', '=', key).execute();
    },

    /** Deletes the rows whose window is over: the expiry sweep's part. */
    async deleteEnded(now) {
      await db.deleteFrom('rate_windows').where('ends_at', '<=', now).execute();
    },
  };
  return store;
}
