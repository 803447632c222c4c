import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { withTestBackend } from '../../../test-support/test-backend.js';
import { AUDIT_PRUNE_LOCK_KEY } from '../audit-retention.js';
import { SWEEP_LOCK_KEY } from '../kysely-storage.js';
import { migrations } from '../migrations/index.js';
import type { Storage } from '../types.js';
import { auditEvent, newSecretBox } from '../../../test-support/storage-values.js';
import { openPostgresStorage } from './open-postgres-storage.js';
import { parsedEntry } from '../../../core/test-support/entries.js';

const adminUrl = process.env.SSOGATE_TEST_DATABASE_URL ?? '';
const skip = adminUrl === '' ? 'PostgreSQL only: set SSOGATE_TEST_DATABASE_URL' : false;

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(text)).rows;
  } finally {
    await client.end();
  }
}

function databaseUrlOf(env: Readonly<Record<string, string>>): string {
  const url = env.SSOGATE_DATABASE_URL ?? '';
  assert.ok(url.startsWith('postgres'));
  return url;
}

/**
 * Runs `run` on a fresh storage while another instance's transaction holds
 * the advisory lock `lockKey` (caught in the middle of its sweep or batch);
 * `release` commits that transaction.
 */
async function whileAnotherInstanceHolds(
  lockKey: string,
  run: (storage: Storage, release: () => Promise<void>) => Promise<void>,
): Promise<void> {
  await withTestBackend(async ({ env }) => {
    const url = databaseUrlOf(env);
    const storage = await openPostgresStorage({ url, secretBox: newSecretBox() });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_advisory_xact_lock(${lockKey})`);
      await run(storage, async () => {
        await other.query('commit');
      });
    } finally {
      await other.end();
      await storage.close();
    }
  });
}

describe('openPostgresStorage', { skip }, () => {
  test('instances starting together on a fresh database migrate once', async () => {
    await withTestBackend(async ({ env }) => {
      const url = databaseUrlOf(env);
      const secretBox = newSecretBox();
      const opened = await Promise.allSettled(
        [1, 2, 3].map(() => openPostgresStorage({ url, secretBox })),
      );
      try {
        for (const result of opened) assert.equal(result.status, 'fulfilled');
        const rows = await query(url, 'select name from kysely_migration order by name');
        assert.deepEqual(
          rows.map((row) => row.name),
          Object.keys(migrations('postgres')).sort(),
        );
      } finally {
        for (const result of opened) {
          if (result.status === 'fulfilled') await result.value.close();
        }
      }
    });
  });

  test('audit events are found by reference through its index', async () => {
    await withTestBackend(async ({ env }) => {
      const url = databaseUrlOf(env);
      await (await openPostgresStorage({ url, secretBox: newSecretBox() })).close();
      const indexes = await query(
        url,
        "select indexdef from pg_indexes where tablename = 'audit_events' and indexname = 'audit_events_reference'",
      );
      assert.match(String(indexes[0]?.indexdef), /\(reference\)/);
      // Enough rows, and statistics, that the planner has a choice to make.
      await query(
        url,
        `insert into audit_events (at, kind, outcome, reference)
         select n, 'sign_in', 'failure', 'R' || n from generate_series(1, 5000) as n;
         analyze audit_events`,
      );
      const plan = (
        await query(
          url,
          "explain select id from audit_events where reference = 'R42' order by id desc limit 50",
        )
      )
        .map((row) => String(row['QUERY PLAN']))
        .join('\n');
      assert.match(plan, /audit_events_reference/);
    });
  });

  test("a back-channel logout finds sessions by the provider's sid through its partial index", async () => {
    await withTestBackend(async ({ env }) => {
      const url = databaseUrlOf(env);
      await (await openPostgresStorage({ url, secretBox: newSecretBox() })).close();
      const indexes = await query(
        url,
        "select indexdef from pg_indexes where tablename = 'oidc_sessions' and indexname = 'oidc_sessions_entry_sid'",
      );
      assert.match(String(indexes[0]?.indexdef), /WHERE \(provider_sid IS NOT NULL\)/);
      // Sessions with and without a sid, and statistics, so the planner has a choice.
      await query(
        url,
        `insert into oidc_sessions (session_hash, entry_id, subject, provider_sid, id_token_sealed, checked_at, expires_at)
         select 'h' || n, 'corp', 'u' || n, case when n % 2 = 0 then 'S' || n end, 'x', 1, 2
           from generate_series(1, 5000) as n;
         analyze oidc_sessions`,
      );
      const plan = (
        await query(
          url,
          "explain select session_hash from oidc_sessions where entry_id = 'corp' and provider_sid = 'S42'",
        )
      )
        .map((row) => String(row['QUERY PLAN']))
        .join('\n');
      assert.match(plan, /oidc_sessions_entry_sid/);
    });
  });

  test('an instance skips the expiry sweep while another is sweeping', async () => {
    await whileAnotherInstanceHolds(SWEEP_LOCK_KEY, async (storage, release) => {
      assert.equal(await storage.sweepExpired(Date.now(), 0), undefined);
      await release();
      assert.deepEqual(await storage.sweepExpired(Date.now(), 0), {
        sessions: 0,
        pendingSignIns: 0,
      });
    });
  });

  test('an instance skips audit pruning while another is pruning', async () => {
    await whileAnotherInstanceHolds(AUDIT_PRUNE_LOCK_KEY, async (storage, release) => {
      for (const at of [1, 2, 3]) await storage.audit.append(auditEvent(at));
      const batch = { before: 10, keepRows: undefined, limit: 500 };
      assert.equal(await storage.pruneAudit(batch), undefined);
      assert.equal((await storage.audit.list({ limit: 10 })).length, 3);
      await release();
      assert.equal(await storage.pruneAudit(batch), 3);
      assert.equal((await storage.audit.list({ limit: 10 })).length, 0);
    });
  });

  test('bigint times come back as numbers, and a dropped idle connection is survived', async () => {
    await withTestBackend(async ({ env }) => {
      const url = databaseUrlOf(env);
      const storage = await openPostgresStorage({ url, secretBox: newSecretBox() });
      try {
        await storage.entries.create(parsedEntry('a'), 0);
        const { user } = await storage.users.insertIfAbsent(
          { userId: 'u1', sourceEntryId: 'a' },
          1_714_564_800_000,
        );
        assert.equal(user.createdAt, 1_714_564_800_000);
        assert.equal((await storage.users.list({ limit: 10, offset: 0 })).total, 1);

        // The server ends every idle connection (a restart, a fail-over): the
        // pool's 'error' must not crash the process, and the next query reconnects.
        const name = new URL(url).pathname.slice(1);
        await query(
          adminUrl,
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
        );
        await delay(100);
        await storage.ping();
        assert.equal((await storage.entries.get('a'))?.input.id, 'a');
      } finally {
        await storage.close();
      }
    });
  });

  test('a connection lost in the middle of a unit of work fails it, and the process lives on', async () => {
    await withTestBackend(async ({ env }) => {
      const url = databaseUrlOf(env);
      const storage = await openPostgresStorage({ url, secretBox: newSecretBox() });
      const name = new URL(url).pathname.slice(1);
      try {
        // The server ends the connection while the transaction awaits other
        // work between two statements, as a PostgreSQL restart does during
        // a sign-in: the client has no query running to receive the error.
        const unit = storage.writeTogether(async (stores) => {
          await stores.users.insertIfAbsent({ userId: 'mid-way', sourceEntryId: null }, 1);
          await query(
            adminUrl,
            `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
          );
          await delay(200);
          await stores.users.insertIfAbsent({ userId: 'mid-way-2', sourceEntryId: null }, 1);
        });
        await assert.rejects(unit);
        await storage.ping();
        assert.equal((await storage.users.list({ limit: 10, offset: 0 })).total, 0);
      } finally {
        await storage.close();
      }
    });
  });
});
