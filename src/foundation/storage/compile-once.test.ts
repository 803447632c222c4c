import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { TestBackend } from '../../test-support/test-backend.js';
import { testBackend } from '../../test-support/test-backend.js';
import { compileOnce, oncePerDatabase } from './compile-once.js';
import type { Database } from './schema.js';

interface Notes {
  notes: { k: string; v: number };
}

/** A bare Kysely on the suite's database (SQLite in memory, or the test PostgreSQL). */
function kyselyOn(backend: TestBackend): Kysely<Notes> {
  const url = backend.env.SSOGATE_DATABASE_URL ?? '';
  if (!url.startsWith('postgres')) {
    return new Kysely<Notes>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }),
    });
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // pool.end() resolves before its clients' sockets have closed, and the
  // cleanup's `drop database ... with (force)` may end one of them first:
  // the pool emits that as an error, which unheard would crash the file.
  pool.on('error', () => undefined);
  return new Kysely<Notes>({ dialect: new PostgresDialect({ pool }) });
}

describe('compileOnce', () => {
  let backend: TestBackend;
  let db: Kysely<Notes>;
  before(async () => {
    backend = await testBackend();
    db = kyselyOn(backend);
    await sql`create table notes (k text primary key, v integer not null)`.execute(db);
  });
  after(async () => {
    await db.destroy();
    await backend.cleanup();
  });
  // compileOnce's runner is typed for the gateway's schema; these tests use their own table.
  const on = (target: Kysely<Notes>) => target as unknown as Kysely<Database>;

  const insert = () =>
    compileOnce((values: { k: string; v: number }) =>
      db.insertInto('notes').values({ k: values.k, v: values.v }),
    );
  const byMinimum = () =>
    compileOnce((values: { min: number; limit: number }) =>
      db
        .selectFrom('notes')
        .select(['k', 'v'])
        .where('v', '>=', values.min)
        .where('k', '!=', 'hidden')
        .orderBy('k')
        .limit(values.limit),
    );

  test('one SQL text, each run with its own values; literals stay in place', async () => {
    const add = insert();
    const find = byMinimum();
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['hidden', 9],
    ] as const)
      await add.execute(on(db), { k, v });
    assert.deepEqual((await find.execute(on(db), { min: 2, limit: 10 })).rows, [
      { k: 'b', v: 2 },
      { k: 'c', v: 3 },
    ]);
    assert.deepEqual((await find.execute(on(db), { min: 0, limit: 1 })).rows, [{ k: 'a', v: 1 }]);
    assert.match(find.sql, /limit/i);
    assert.doesNotMatch(find.sql, /'hidden'|\b10\b/);
  });

  test('values are bound, never spliced into the SQL', async () => {
    const add = insert();
    const sneaky = "x'); drop table notes; --";
    await add.execute(on(db), { k: sneaky, v: 5 });
    const rows = await db.selectFrom('notes').select('v').where('k', '=', sneaky).execute();
    assert.deepEqual(rows, [{ v: 5 }]);
    assert.equal(add.sql.includes(sneaky), false);
  });

  test('a missing value is an error, not a null', async () => {
    const find = byMinimum();
    await assert.rejects(
      find.execute(on(db), { min: 1 } as unknown as { min: number; limit: number }),
      /No value for limit/,
    );
  });

  test('runs inside a transaction, which keeps or drops its writes', async () => {
    const add = insert();
    await db.transaction().execute(async (trx) => {
      await add.execute(on(trx), { k: 'in-trx', v: 1 });
    });
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await add.execute(on(trx), { k: 'rolled-back', v: 1 });
        throw new Error('undo');
      }),
      /undo/,
    );
    const keys = (await db.selectFrom('notes').select('k').execute()).map((row) => row.k);
    assert.ok(keys.includes('in-trx'));
    assert.equal(keys.includes('rolled-back'), false);
  });

  test('oncePerDatabase builds once per database, shared by its transactions', async () => {
    let builds = 0;
    const queries = oncePerDatabase(() => {
      builds += 1;
      return {};
    });
    const first = queries(on(db));
    assert.equal(queries(on(db)), first);
    const inTransaction = await db
      .transaction()
      .execute((trx) => Promise.resolve(queries(on(trx))));
    assert.equal(inTransaction, first);
    const other = new Kysely<Notes>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }),
    });
    try {
      assert.notEqual(queries(on(other)), first);
    } finally {
      await other.destroy();
    }
    assert.equal(builds, 2);
  });
});
