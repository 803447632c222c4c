import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct names kept per process; the stores have far fewer query shapes. */
const maxNames = 1024;

/**
 * Makes every parameterised query of the pool's connections a named
 * prepared statement, named after its SQL text: PostgreSQL parses and plans
 * a text once per connection and then only binds values (the extended
 * protocol's Bind/Execute), as the SQLite statement cache does there
 * (../sqlite/statement-cache.ts). Kysely sends a query as (text, values);
 * anything else (a cursor, a query without values: BEGIN, the migrations'
 * DDL) goes as it came. Needs a connection that stays with its client: a
 * pooler in transaction mode in front of PostgreSQL would lose the
 * statements (docs/deployment.md#postgresql-and-connection-poolers).
 */
export function nameStatementsOf(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = `ssogate_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      if (names.size >= maxNames) names.clear();
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [text, values, ...rest] = args;
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0)
        return query({ name: nameOf(text), text, values }, ...rest);
      return query(...args);
    };
  });
}
