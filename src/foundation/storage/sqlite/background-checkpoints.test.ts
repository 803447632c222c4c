import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { withTempDir } from '../../../test-support/storage-values.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import type { BackgroundCheckpoints, CheckpointState } from './background-checkpoints.js';
import { checkpointInBackground } from './background-checkpoints.js';

/** A WAL file as the gateway opens it (open-sqlite-storage.ts), with one table to fill. */
function walDatabase(filename: string): BetterSqlite3.Database {
  const database = new BetterSqlite3(filename);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec('create table rows (id integer primary key, body text not null)');
  return database;
}

/** Commits `count` rows of 1 KiB one by one, as sign-ins do. */
function commitRows(database: BetterSqlite3.Database, count: number): void {
  const insert = database.prepare('insert into rows (body) values (?)');
  for (let index = 0; index < count; index += 1) insert.run('x'.repeat(1024));
}

const stateOf = (checkpoints: BackgroundCheckpoints): CheckpointState => checkpoints.state;

describe('checkpointInBackground', () => {
  test('starts once the log is written to in earnest, and then the thread checkpoints', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const database = walDatabase(filename);
      const checkpoints = checkpointInBackground(database, filename, {
        startAtLogBytes: 256 * 1024,
        pollMs: 20,
        everyMs: 20,
      });
      try {
        commitRows(database, 10);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(stateOf(checkpoints), 'waiting', 'a few kilobytes of log start nothing');

        commitRows(database, 400);
        await waitUntil(() => stateOf(checkpoints) === 'running', {
          message: 'the thread to start',
        });
        // The gateway's connection now leaves checkpoints to the thread.
        assert.equal(database.pragma('wal_autocheckpoint', { simple: true }), 10_000);

        // About 2 MiB of log, under SQLite's own threshold of 1000 pages, so
        // only the thread can have copied it into the database file.
        const sizeBefore = statSync(filename).size;
        commitRows(database, 1500);
        await waitUntil(() => statSync(filename).size > sizeBefore + 1024 * 1024, {
          message: 'the rows to reach the database file',
        });
      } finally {
        await checkpoints.stop();
        database.close();
      }
      assert.equal(stateOf(checkpoints), 'stopped');
      const reopened = new BetterSqlite3(filename, { readonly: true });
      try {
        assert.deepEqual(reopened.prepare('select count(*) as n from rows').get(), { n: 1910 });
      } finally {
        reopened.close();
      }
    });
  });

  test('a thread that fails gives the checkpoints back to the gateway, with a warning', async () => {
    await withTempDir(async (dir) => {
      const filename = join(dir, 'gateway.db');
      const failing = join(dir, 'failing-thread.mjs');
      writeFileSync(failing, "throw new Error('no checkpoints today');\n");
      const database = walDatabase(filename);
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      const checkpoints = checkpointInBackground(database, filename, {
        startAtLogBytes: 1,
        pollMs: 20,
        threadUrl: pathToFileURL(failing),
      });
      try {
        commitRows(database, 1);
        await waitUntil(() => stateOf(checkpoints) === 'failed', { message: 'the fallback' });
        assert.equal(database.pragma('wal_autocheckpoint', { simple: true }), 1000);
        await waitUntil(() => warnings.length > 0, { message: 'the warning' });
        assert.match(
          warnings[0] ?? '',
          /checkpoints are back on the event loop: no checkpoints today/,
        );
      } finally {
        process.off('warning', onWarning);
        await checkpoints.stop();
        database.close();
      }
    });
  });
});
