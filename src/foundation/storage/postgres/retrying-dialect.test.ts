import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, sql } from 'kysely';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { RetryingPostgresDialect } from './retrying-dialect.js';

interface Tables {
  pending: { key: string; value: string };
  sessions: { id: string };
}

/** What each checkout's first query does: fail with the error given, or answer. */
type Plan = readonly (Error | undefined)[];

/**
 * A pool of pretend connections: the n-th checkout's first query fails with
 * plan[n] (when set); every query is recorded with its checkout, every
 * release with whether it discarded the connection.
 */
function plannedPool(plan: Plan) {
  const sent: string[] = [];
  const releases: string[] = [];
  let checkouts = 0;
  const pool: PostgresPool = {
    connect() {
      const checkout = checkouts;
      checkouts += 1;
      let first = true;
      const client = {
        query(text: string): Promise<PostgresQueryResult<unknown>> {
          sent.push(`${checkout}: ${text.split(' ').slice(0, 2).join(' ')}`);
          const failure = first ? plan[checkout] : undefined;
          first = false;
          if (failure !== undefined) return Promise.reject(failure);
          return Promise.resolve({ command: 'SELECT', rowCount: 0, rows: [] });
        },
        release() {
          releases.push(String(checkout));
        },
      };
      return Promise.resolve(client as unknown as PostgresPoolClient);
    },
    end: () => Promise.resolve(),
  };
  const db = new Kysely<Tables>({ dialect: new RetryingPostgresDialect({ pool }) });
  return { db, sent, releases };
}

const lost = () => new Error('Connection terminated unexpectedly');
const shutDown = () => Object.assign(new Error('terminating connection'), { code: '57P01' });
const readOnly = () =>
  Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' });

describe('statements are tried again after a switch only where that is safe', () => {
  test('a read lost with its connection is read again on a new one', async () => {
    const { db, sent, releases } = plannedPool([lost()]);
    await db.selectFrom('sessions').selectAll().where('id', '=', 'a').execute();
    assert.deepEqual(sent, ['0: select *', '1: select *']);
    assert.deepEqual(releases, ['0', '1']);
  });

  test('a plain write whose outcome is unknown is not written again', async () => {
    const { db, sent } = plannedPool([shutDown()]);
    await assert.rejects(db.insertInto('sessions').values({ id: 'a' }).execute(), {
      code: '57P01',
    });
    assert.deepEqual(sent, ['0: insert into']);
  });

  test('an upsert on its key is written again: its row ends the same', async () => {
    const { db, sent } = plannedPool([lost()]);
    await db
      .insertInto('pending')
      .values({ key: 'k', value: 'v' })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: 'v' }))
      .execute();
    assert.deepEqual(sent, ['0: insert into', '1: insert into']);
  });

  test('an insert that tells whether it inserted is not', async () => {
    const { db, sent } = plannedPool([lost()]);
    await assert.rejects(
      db
        .insertInto('pending')
        .values({ key: 'k', value: 'v' })
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute(),
    );
    assert.deepEqual(sent, ['0: insert into']);
  });

  test('a write a read-only server refused is sent to the new primary', async () => {
    const { db, sent } = plannedPool([readOnly()]);
    await db.insertInto('sessions').values({ id: 'a' }).execute();
    assert.deepEqual(sent, ['0: insert into', '1: insert into']);
  });

  test('a transaction failing at BEGIN starts again; one failing later does not', async () => {
    const atBegin = plannedPool([lost()]);
    await atBegin.db.transaction().execute(async (trx) => {
      await trx.insertInto('sessions').values({ id: 'a' }).execute();
    });
    assert.deepEqual(atBegin.sent, ['0: begin', '1: begin', '1: insert into', '1: commit']);

    const later = plannedPool([]);
    await assert.rejects(
      later.db.transaction().execute(async (trx) => {
        await trx.insertInto('sessions').values({ id: 'a' }).execute();
        throw lost();
      }),
    );
    assert.deepEqual(later.sent, ['0: begin', '0: insert into', '0: rollback']);
  });

  test('raw statements (locks, notifications) are not repeated after a loss', async () => {
    const { db, sent } = plannedPool([lost()]);
    await assert.rejects(sql`select pg_notify('c', 'x')`.execute(db));
    assert.deepEqual(sent, ["0: select pg_notify('c',"]);
  });
});
