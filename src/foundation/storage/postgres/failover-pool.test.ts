import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { freePort } from '../../../test-support/free-port.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import { FailoverPool } from './failover-pool.js';
import { postgresHosts } from '../../config/postgres-hosts.js';

describe('postgresHosts', () => {
  test('several servers, libpq style, become one URL each; read-write is implied', () => {
    assert.deepEqual(postgresHosts('postgres://u:p@db1:5432,db2:5433/ssogate?sslmode=require'), {
      urls: [
        'postgres://u:p@db1:5432/ssogate?sslmode=require',
        'postgres://u:p@db2:5433/ssogate?sslmode=require',
      ],
      readWrite: true,
    });
  });

  test('one server keeps its URL as written, and takes any session unless told', () => {
    const url = 'postgresql://u@db1/ssogate?application_name=a%20b';
    assert.deepEqual(postgresHosts(url), { urls: [url], readWrite: false });
    assert.deepEqual(postgresHosts('postgres://db1/x?target_session_attrs=read-write'), {
      urls: ['postgres://db1/x'],
      readWrite: true,
    });
  });

  test('unknown target_session_attrs and empty servers are refused', () => {
    assert.throws(
      () => postgresHosts('postgres://db1,db2/x?target_session_attrs=standby'),
      /target_session_attrs=standby is not supported/,
    );
    assert.throws(() => postgresHosts('postgres://db1,,db2/x'), /empty server/);
  });
});

const adminUrl = process.env.SSOGATE_TEST_DATABASE_URL ?? '';
const skip = adminUrl === '' ? 'PostgreSQL only: set SSOGATE_TEST_DATABASE_URL' : false;

describe('FailoverPool', { skip }, () => {
  /** The test server's URL with a server that refuses connections listed first. */
  async function deadThenLive(): Promise<string> {
    const live = new URL(adminUrl);
    const dead = `127.0.0.1:${await freePort()}`;
    return `postgres://${live.username}@${dead},${live.host}${live.pathname}`;
  }

  test('a server that refuses is passed over for the next', async () => {
    const pool = new FailoverPool(await deadThenLive(), { max: 2, connectionTimeoutMillis: 3000 });
    pool.on('error', () => undefined);
    try {
      const { rows } = await pool.query<{ one: number }>('select 1 as one');
      assert.deepEqual(rows, [{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  test('a connection whose server ended its session is discarded, not reused', async () => {
    const pool = new FailoverPool(adminUrl, { max: 2, connectionTimeoutMillis: 3000 });
    pool.on('error', () => undefined);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const client = await pool.connect();
      client.on('error', () => undefined);
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
        ?.pid;
      const sleeping = client.query('select pg_sleep(30)');
      await waitUntil(
        async () =>
          (
            await admin.query<{ n: string }>(
              "select count(*) as n from pg_stat_activity where pid = $1 and state = 'active'",
              [pid],
            )
          ).rows[0]?.n === '1',
        { message: 'the query to run' },
      );
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await assert.rejects(sleeping, { code: '57P01' });
      client.release();
      assert.equal(pool.totalCount, 0);
    } finally {
      await admin.end();
      await pool.end();
    }
  });
});
