import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { TestBackend } from '../../../test-support/test-backend.js';
import { testBackend, testBackendName } from '../../../test-support/test-backend.js';
import { nameStatementsOf } from './named-statements.js';

interface Notes {
  notes: { k: string; v: number };
}

const postgresOnly = testBackendName().startsWith('postgres') ? false : 'PostgreSQL only';

describe('nameStatementsOf', { skip: postgresOnly }, () => {
  let backend: TestBackend;
  let pool: pg.Pool;
  let db: Kysely<Notes>;
  before(async () => {
    backend = await testBackend();
    // One connection, so every query below runs on the one that holds the statements.
    pool = new pg.Pool({ connectionString: backend.env.SSOGATE_DATABASE_URL, max: 1 });
    // pool.end() resolves before its client's socket has closed, and the
    // cleanup's `drop database ... with (force)` may end it first: heard here,
    // not as an uncaught error.
    pool.on('error', () => undefined);
    nameStatementsOf(pool);
    db = new Kysely<Notes>({ dialect: new PostgresDialect({ pool }) });
    await sql`create table notes (k text primary key, v integer not null)`.execute(db);
  });
  after(async () => {
    await db.destroy();
    await backend.cleanup();
  });

  const prepared = async (): Promise<string[]> =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements where name like 'ssogate_%' order by statement`.execute(
        db,
      )
    ).rows.map((row) => row.statement);

  test('a query text is prepared once per connection and run with each call’s values', async () => {
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      await db.insertInto('notes').values({ k, v }).execute();
    const byKey = (k: string) => db.selectFrom('notes').select('v').where('k', '=', k).execute();
    assert.deepEqual(await byKey('a'), [{ v: 1 }]);
    assert.deepEqual(await byKey('c'), [{ v: 3 }]);
    assert.deepEqual(await byKey('none'), []);
    const statements = await prepared();
    assert.equal(statements.length, 2, statements.join('\n'));
    assert.ok(statements.some((text) => text.startsWith('insert into "notes"')));
    assert.ok(statements.some((text) => text.startsWith('select "v" from "notes"')));
  });

  test('queries without values, and transactions, run as before', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ k: 'in-trx', v: 9 }).execute();
    });
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ k: 'dropped', v: 9 }).execute();
        throw new Error('undo');
      }),
      /undo/,
    );
    const { rows } = await sql<{ k: string }>`select k from notes order by k`.execute(db);
    assert.deepEqual(
      rows.map((row) => row.k),
      ['a', 'b', 'c', 'in-trx'],
    );
  });
});
