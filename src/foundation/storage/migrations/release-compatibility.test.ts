import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openStorage } from '../../../app/open-storage.js';
import type { GatewayStorage } from '../../../app/open-storage.js';
import { testBackend } from '../../../test-support/test-backend.js';
import { loadConfig } from '../../config/load-config.js';
import { migrationStanding } from './index.js';

/**
 * Runs `run` with a way to open the suite's backend as the gateway does, as
 * many times as it likes (a SQLite file, or a fresh PostgreSQL database),
 * and cleans up after.
 */
async function withReopenableStorage(
  run: (open: () => Promise<GatewayStorage>) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-releases-'));
  const backend = await testBackend({ sqliteFile: join(dir, 'ssogate.db') });
  const env = {
    ...backend.env,
    SSOGATE_DATA_DIR: dir,
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  try {
    await run(() => openStorage(loadConfig(env)));
  } finally {
    await backend.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Opens the storage, runs `change` on it, and closes it. */
async function withOpen(
  open: () => Promise<GatewayStorage>,
  change: (storage: GatewayStorage) => Promise<void>,
): Promise<void> {
  const storage = await open();
  try {
    await change(storage);
  } finally {
    await storage.close();
  }
}

/** Records `name` as run, as Kysely's migrator does. */
async function recordRun(storage: GatewayStorage, name: string): Promise<void> {
  await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
    storage.kysely,
  );
}

/** What a newer release's migration does: a table of its own, a column the older code ignores. */
async function migrateAsNewerRelease(storage: GatewayStorage): Promise<void> {
  await sql`create table from_a_newer_release (id integer primary key)`.execute(storage.kysely);
  await sql`alter table users add column newer_attribute text`.execute(storage.kysely);
  await recordRun(storage, '9000_from_a_newer_release');
}

describe('a database shared with another release', () => {
  test('migrated further by a newer release, it serves this one: a sign-in writes and reads back', async () => {
    await withReopenableStorage(async (open) => {
      await withOpen(open, migrateAsNewerRelease);
      // An instance of this (older) release starting again during the upgrade.
      await withOpen(open, async (storage) => {
        const session = await storage.writeTogether(async (stores) => {
          const { user } = await stores.users.insertIfAbsent(
            { userId: 'during-upgrade', sourceEntryId: null, email: 'u@example.test' },
            Date.now(),
          );
          const record = {
            idHash: 'session-during-upgrade',
            userRowId: user.id,
            entryId: null,
            createdAt: Date.now(),
            lastSeenAt: Date.now(),
            expiresAt: Date.now() + 60_000,
          };
          await stores.sessions.create(record);
          return record;
        });
        assert.deepEqual(await storage.sessions.get(session.idHash), session);
        assert.equal((await storage.users.findByUserId('during-upgrade'))?.email, 'u@example.test');
      });
    });
  });

  test('a record with an unknown migration among its own is refused, naming it', async () => {
    await withReopenableStorage(async (open) => {
      await withOpen(open, (storage) => recordRun(storage, '0026b_from_elsewhere'));
      await assert.rejects(open(), /does not know among its own \(0026b_from_elsewhere\)/);
    });
  });

  test('one of its own missing behind an unknown one is refused', async () => {
    await withReopenableStorage(async (open) => {
      await withOpen(open, async (storage) => {
        await sql`delete from kysely_migration where name = (select max(name) from kysely_migration)`.execute(
          storage.kysely,
        );
        await recordRun(storage, '9000_from_a_newer_release');
      });
      await assert.rejects(open(), /9000_from_a_newer_release/);
    });
  });
});

describe('migrationStanding', () => {
  const known = ['0001_a', '0002_b', '0003_c'];

  test('current, behind, ahead and diverged', () => {
    assert.deepEqual(migrationStanding(known, [...known]), { kind: 'current' });
    assert.deepEqual(migrationStanding(known, []), { kind: 'behind', missing: known });
    assert.deepEqual(migrationStanding(known, ['0001_a']), {
      kind: 'behind',
      missing: ['0002_b', '0003_c'],
    });
    assert.deepEqual(migrationStanding(known, [...known, '0005_e', '0004_d']), {
      kind: 'ahead',
      unknown: ['0004_d', '0005_e'],
    });
    assert.deepEqual(migrationStanding(known, [...known, '0002_x']), {
      kind: 'diverged',
      unknown: ['0002_x'],
    });
    assert.deepEqual(migrationStanding(known, ['0001_a', '0002_b', '0004_d']), {
      kind: 'diverged',
      unknown: ['0004_d'],
    });
  });
});
