import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { TestBrowser } from '../../../test-support/browser.js';
import type { TestGateway } from '../../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../../test-support/gateway-fixture.js';
import {
  postgresServerPrograms,
  ReplicatedPostgres,
} from '../../../test-support/postgres-replication.js';
import { signOut } from '../../../test-support/sign-out.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import { FailoverPool } from './failover-pool.js';

const programs = postgresServerPrograms();
const skip =
  programs === undefined
    ? 'needs PostgreSQL server programs (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql'
    : false;

/**
 * A primary and its streaming replica; the gateway is given both
 * (failover-pool.ts). The primary dies while the gateway serves, the
 * replica is promoted: sign-ins go on, sessions made before stay good, and a
 * sign-out after the switch is honoured. A plain pg Pool given the primary's
 * address, as node-postgres alone connects, is shown failing in the same
 * switch, so the fault is real; one given the replica's fails to write.
 */
test('the gateway follows a switch of PostgreSQL primary', { skip }, async () => {
  const cluster = await ReplicatedPostgres.start(programs ?? '');
  let gw: TestGateway | undefined;
  const naive = new pg.Pool({ connectionString: cluster.url(cluster.primary), max: 2 });
  naive.on('error', () => undefined);
  try {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      usernames: ['alice', 'bob', 'carol'],
      env: {
        SSOGATE_DATABASE_URL: cluster.url(cluster.primary, cluster.replica),
        // Sessions in PostgreSQL alone, so every check reaches it.
        SSOGATE_REDIS_URL: '',
      },
    });
    const gateway = gw;
    const signedIn = async (username: string): Promise<TestBrowser> => {
      const browser = gateway.browser();
      await signInAtExample(browser, gateway.example.url, username);
      const landed = await browser.open(`${gateway.url}/`);
      assert.equal(landed.status, 200, landed.body.slice(0, 300));
      return browser;
    };
    const me = async (browser: TestBrowser): Promise<number> =>
      (await browser.open(`${gateway.url}/_sso/me`, { accept: 'application/json' })).status;

    // A replica listed first is passed over: it takes no writes, which a
    // plain pool given its address learns only at the first write.
    const replicaFirst = new FailoverPool(cluster.url(cluster.replica, cluster.primary), {
      max: 1,
      connectionTimeoutMillis: 3000,
    });
    const naiveAtReplica = new pg.Pool({ connectionString: cluster.url(cluster.replica), max: 1 });
    try {
      const { rows } = await replicaFirst.query<{ standby: boolean }>(
        'select pg_is_in_recovery() as standby',
      );
      assert.deepEqual(rows, [{ standby: false }]);
      await assert.rejects(naiveAtReplica.query('create table naive_writes (n integer)'), {
        code: '25006',
      });
    } finally {
      await replicaFirst.end();
      await naiveAtReplica.end();
    }

    const before = await signedIn('alice');
    assert.equal(await me(before), 200);
    await naive.query('create table naive_writes (n integer)');
    // Replication is asynchronous: the switch is made once the replica has
    // what the primary wrote, as an operator's switch (or synchronous
    // replication) makes sure of.
    const written = (await naive.query<{ lsn: string }>('select pg_current_wal_lsn() as lsn'))
      .rows[0]?.lsn;
    const replica = new pg.Client({ connectionString: cluster.url(cluster.replica) });
    await replica.connect();
    try {
      await waitUntil(
        async () =>
          (
            await replica.query<{ caught: boolean }>(
              'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught',
              [written],
            )
          ).rows[0]?.caught,
        { message: 'the replica to replay what the primary wrote' },
      );
    } finally {
      await replica.end();
    }

    await cluster.stopImmediately(cluster.primary);
    await cluster.promote(cluster.replica);

    // node-postgres alone knows one server: its idle connection was cut,
    // and the old primary's address refuses every new one.
    await assert.rejects(naive.query('insert into naive_writes values (1)'));
    await assert.rejects(naive.query('insert into naive_writes values (2)'), {
      code: 'ECONNREFUSED',
    });

    // The first requests may meet the connections the crash cut; within
    // the time a switch takes, a whole new sign-in succeeds.
    const after = await waitUntil(
      async () => {
        try {
          return await signedIn('bob');
        } catch {
          return undefined;
        }
      },
      { message: 'a sign-in after the switch', timeoutMs: 30_000, intervalMs: 250 },
    );
    assert.equal(await me(after), 200);
    // Made on the old primary, replicated before it died: still good.
    assert.equal(await me(before), 200);

    const out = await signOut(before, gateway.url);
    assert.ok(out.status < 400, `sign-out answered ${out.status}`);
    assert.equal(await me(before), 401);
    assert.equal(await me(after), 200);
  } finally {
    await naive.end().catch(() => undefined);
    await gw?.close();
    cluster.destroy();
  }
});
