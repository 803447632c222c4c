import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { featureTables } from '../../../app/open-storage.js';
import { migrations } from '../migrations/index.js';
import { newSecretBox, withTempDir } from '../../../test-support/storage-values.js';
import { openSqliteStorage } from './open-sqlite-storage.js';
import { parsedEntry } from '../../../core/test-support/entries.js';

function rawQuery(filename: string, query: string): unknown[] {
  const raw = new BetterSqlite3(filename);
  try {
    raw.pragma('foreign_keys = ON');
    return raw.prepare(query).all();
  } finally {
    raw.close();
  }
}

const run = promisify(execFile);

/** The schema's tables, indexes and triggers as stored, by name. */
function schemaOf(raw: BetterSqlite3.Database): Record<string, string> {
  const rows = raw
    .prepare(
      "select name, sql from sqlite_master where sql is not null and name not like 'sqlite_%'",
    )
    .all() as { name: string; sql: string }[];
  return Object.fromEntries(rows.map((row) => [row.name, row.sql]));
}

/**
 * Opens (and closes) the file from its own process, as a gateway starting
 * or a command beside it does, at `startAt` (epoch ms) so that several
 * begin together whatever their start-up took.
 */
async function openInOwnProcess(filename: string, startAt: number): Promise<void> {
  const module = (name: string) => JSON.stringify(new URL(name, import.meta.url).href);
  const script = `
    import { randomBytes } from 'node:crypto';
    import { openSqliteStorage } from ${module('./open-sqlite-storage.js')};
    import { createSecretBox } from ${module('../../crypto/secret-box.js')};
    await new Promise((resolve) => setTimeout(resolve, ${startAt} - Date.now()));
    const storage = await openSqliteStorage({
      filename: ${JSON.stringify(filename)},
      secretBox: createSecretBox(new Uint8Array(randomBytes(32))),
    });
    await storage.close();
  `;
  await run(process.execPath, ['--input-type=module', '--eval', script]);
}

describe('openSqliteStorage', () => {
  test('migrates a new file (creating its directory), and reopening is a no-op', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'nested', 'gateway.db');
      const secretBox = newSecretBox();
      const first = await openSqliteStorage({ filename, secretBox });
      await first.ping();
      await first.entries.create(parsedEntry('kept', { appsecret: 's' }), 1);
      await first.close();

      const second = await openSqliteStorage({ filename, secretBox });
      try {
        assert.equal((await second.entries.get('kept'))?.input.appsecret, 's');
      } finally {
        await second.close();
      }
      assert.deepEqual(
        rawQuery(filename, 'select name from kysely_migration order by name'),
        Object.keys(migrations('sqlite'))
          .sort()
          .map((name) => ({ name })),
      );
    });
  });

  test('processes opening a new file together all start, and each migration runs once', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const startAt = Date.now() + 1500;
      const opened = await Promise.allSettled(
        [1, 2, 3].map(() => openInOwnProcess(filename, startAt)),
      );
      assert.deepEqual(
        opened.map((result) => (result.status === 'fulfilled' ? 'opened' : String(result.reason))),
        ['opened', 'opened', 'opened'],
      );
      assert.deepEqual(
        rawQuery(filename, 'select name from kysely_migration order by name'),
        Object.keys(migrations('sqlite'))
          .sort()
          .map((name) => ({ name })),
      );
    });
  });

  test('uses WAL on a file and enforces foreign keys', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const storage = await openSqliteStorage({ filename, secretBox: newSecretBox() });
      try {
        const { user } = await storage.users.insertIfAbsent(
          { userId: 'u', sourceEntryId: null },
          1,
        );
        await storage.sessions.create({
          idHash: 'h',
          userRowId: user.id,
          entryId: null,
          createdAt: 1,
          lastSeenAt: 1,
          expiresAt: 2,
        });
        await assert.rejects(
          storage.sessions.create({
            idHash: 'h2',
            userRowId: user.id + 100,
            entryId: null,
            createdAt: 1,
            lastSeenAt: 1,
            expiresAt: 2,
          }),
          /FOREIGN KEY/,
        );
      } finally {
        await storage.close();
      }
      assert.deepEqual(rawQuery(filename, 'pragma journal_mode'), [{ journal_mode: 'wal' }]);
      // Users are never deleted by the API, but if one is, its sessions go with it.
      rawQuery(filename, "delete from users where user_id = 'u' returning id");
      assert.deepEqual(rawQuery(filename, 'select id_hash from sessions'), []);
    });
  });

  test('every table and index of the schema exists', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      await (await openSqliteStorage({ filename, secretBox: newSecretBox() })).close();
      const names = rawQuery(
        filename,
        "select name from sqlite_master where type in ('table', 'index') and name not like 'sqlite_%' order by name",
      ).map((row) => (row as { name: string }).name);
      for (const name of [
        'api_tokens',
        'audit_events',
        'audit_events_at',
        'audit_events_reference',
        'audit_events_entry_id',
        'audit_events_user_id',
        'entries',
        'pending_sign_ins',
        'sessions',
        'sessions_user_row_id',
        'users',
      ]) {
        assert.ok(names.includes(name), `missing ${name}`);
      }
    });
  });

  test('audit events are found by reference through its index, not a scan', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      await (await openSqliteStorage({ filename, secretBox: newSecretBox() })).close();
      // The shape of AuditStore.list({ reference }): equality, newest first, a page.
      const plan = rawQuery(
        filename,
        "explain query plan select id from audit_events where reference = 'R1' order by id desc limit 50",
      ).map((row) => (row as { detail: string }).detail);
      assert.ok(
        plan.some((step) => /USING (COVERING )?INDEX audit_events_reference/.test(step)),
        plan.join('\n'),
      );
      assert.ok(!plan.some((step) => /^SCAN audit_events\b/.test(step)), plan.join('\n'));
    });
  });

  test('migration 0023 keeps the rows, indexes, trigger and cascade of sessions and pending sign-ins', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const raw = new BetterSqlite3(filename);
      raw.pragma('foreign_keys = ON');
      const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
      // With the OpenID Provider's tables, as the gateway migrates (app/open-storage.ts).
      const all = migrations('sqlite', featureTables);
      const provider = { getMigrations: () => Promise.resolve(all) };
      let before: Record<string, string>;
      try {
        assert.equal(
          (await new Migrator({ db, provider }).migrateTo('0022_handoff_user')).error,
          undefined,
        );
        before = schemaOf(raw);
        raw.exec(`
          insert into users (user_id, created_at, updated_at) values ('alice', 1, 1), ('bob', 1, 1);
          insert into sessions (id_hash, user_row_id, entry_id, created_at, last_seen_at, expires_at)
            values ('alice-session', 1, 'corp', 1, 2, 10000), ('bob-session', 2, null, 1, 2, 10000);
          insert into pending_sign_ins
            (state_hash, entry_id, return_to, binding_hash, redirect_uri, created_at, expires_at)
            values ('state', 'corp', '/here', 'binding', 'https://sso.example.test/cb', 1, 10000);
        `);
      } finally {
        await db.destroy();
      }

      const storage = await openSqliteStorage({
        filename,
        secretBox: newSecretBox(),
        features: featureTables,
      });
      try {
        assert.deepEqual(await storage.sessions.get('alice-session'), {
          idHash: 'alice-session',
          userRowId: 1,
          entryId: 'corp',
          createdAt: 1,
          lastSeenAt: 2,
          expiresAt: 10000,
        });
        assert.equal((await storage.pendingSignIns.consume('state'))?.returnTo, '/here');
        await storage.sessions.delete('alice-session');
      } finally {
        await storage.close();
      }

      const after = new BetterSqlite3(filename);
      after.pragma('foreign_keys = ON');
      const migrated = new Kysely<unknown>({ dialect: new SqliteDialect({ database: after }) });
      try {
        // The grants' acr column (0031) and the second factor's tables and
        // columns (0028 to 0030), undone first: what follows is about 0023
        // and what came between.
        await all['0031_oidc_grant_acr']?.down?.(migrated);
        await all['0030_webauthn_credentials']?.down?.(migrated);
        await all['0029_second_factors']?.down?.(migrated);
        await migrations('sqlite')['0028_session_factor']?.down?.(migrated);
        const schema = schemaOf(after);
        for (const table of ['pending_sign_ins', 'sessions']) {
          assert.equal(schema[table], `${before[table] ?? ''} WITHOUT ROWID`);
        }
        // The same indexes and trigger, word for word, and no automatic index for
        // the key (the reference index is 0024's, made partial, and the sid
        // index 0025's; the grants' columns 0026's; the SAML subject's column 0027's).
        const {
          pending_sign_ins: pending,
          sessions,
          audit_events_reference: reference,
          oidc_sessions_entry_sid: sid,
          oidc_grants: grants,
          oidc_sessions: upstream,
        } = before;
        assert.match(schema.audit_events_reference ?? '', /where reference is not null$/);
        assert.match(schema.oidc_sessions_entry_sid ?? '', /where provider_sid is not null$/);
        // 0026's columns, added at the end.
        assert.match(schema.oidc_grants ?? '', /"revoked_at" bigint, "last_issued_at" bigint\)$/);
        assert.match(
          schema.oidc_sessions ?? '',
          /"access_sealed" text, "subject_qualifiers" text\)$/,
        );
        assert.deepEqual(
          {
            ...schema,
            pending_sign_ins: pending,
            sessions,
            audit_events_reference: reference,
            oidc_sessions_entry_sid: sid,
            oidc_grants: grants,
            oidc_sessions: upstream,
          },
          before,
        );
        assert.deepEqual(
          after
            .prepare(
              "select name from sqlite_master where sql is null and tbl_name in ('sessions', 'pending_sign_ins')",
            )
            .all(),
          [],
        );
        after.exec("delete from users where user_id = 'bob'");
        assert.deepEqual(after.prepare('select id_hash from sessions').all(), []);
        // The trigger logs each deleted session, the cascade's too; the rebuild logged none.
        assert.deepEqual(
          after.prepare('select scope, subject from session_revocations order by id').all(),
          [
            { scope: 'session', subject: 'alice-session' },
            { scope: 'session', subject: 'bob-session' },
            { scope: 'user', subject: '2' },
          ],
        );
        // Undone in turn, the later migrations and then 0023 give back 0022's schema.
        await migrations('sqlite')['0027_saml_subject']?.down?.(migrated);
        await all['0026_oidc_grant_revocation']?.down?.(migrated);
        await migrations('sqlite')['0025_oidc_sid_partial_index']?.down?.(migrated);
        await migrations('sqlite')['0024_audit_reference_partial_index']?.down?.(migrated);
        await migrations('sqlite')['0023_without_rowid']?.down?.(migrated);
        assert.deepEqual(schemaOf(after), before);
      } finally {
        await migrated.destroy();
      }
    });
  });

  test("a back-channel logout finds sessions by the provider's sid through its partial index", async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      await (await openSqliteStorage({ filename, secretBox: newSecretBox() })).close();
      // The shape of UpstreamSessionStore.sessionsOf(entry, { sid }).
      const plan = rawQuery(
        filename,
        "explain query plan select session_hash from oidc_sessions where entry_id = 'corp' and provider_sid = 'S1'",
      ).map((row) => (row as { detail: string }).detail);
      assert.ok(
        plan.some((step) => /USING (COVERING )?INDEX oidc_sessions_entry_sid/.test(step)),
        plan.join('\n'),
      );
    });
  });

  test('an in-memory database works and close releases it', async () => {
    const storage = await openSqliteStorage({ filename: ':memory:', secretBox: newSecretBox() });
    await storage.ping();
    await storage.close();
    await assert.rejects(storage.ping());
  });
});
