import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept; the stores have far fewer shapes than this. */
const defaultCapacity = 256;

/**
 * The database as Kysely's SQLite dialect sees it, with each statement
 * prepared once per SQL text and reused. Kysely prepares the statement of
 * every query it runs; better-sqlite3 has no cache of its own, and preparing
 * (parsing and planning) the same text again cost as much as running it.
 * Values are always bound at run time, so a reused statement carries nothing
 * of its previous run. A statement still being iterated (a streamed query)
 * is busy: the caller then gets a fresh one, not the cached one. A schema
 * change (a migration) makes SQLite prepare a cached statement again by
 * itself. The oldest statement goes when `capacity` is reached.
 */
export function withStatementCache(
  database: BetterSqlite3.Database,
  capacity: number = defaultCapacity,
): SqliteDatabase & { readonly cachedStatements: () => number } {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (text: string): SqliteStatement => {
    const cached = statements.get(text);
    if (cached !== undefined) return cached.busy ? database.prepare(text) : cached;
    const statement = database.prepare(text);
    if (statements.size >= capacity) {
      const oldest = statements.keys().next().value;
      if (oldest !== undefined) statements.delete(oldest);
    }
    statements.set(text, statement);
    return statement;
  };
  return {
    prepare,
    close: () => {
      statements.clear();
      database.close();
    },
    cachedStatements: () => statements.size,
  };
}
