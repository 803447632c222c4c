import { test } from 'node:test';
import assert from 'node:assert/strict';
import { switchToWalMode } from './wal-mode.js';

const busy = (): Error => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** A database whose journal-mode switch is refused `refusals` times, then succeeds. */
function refusingDatabase(refusals: number, refusal: () => Error = busy) {
  const calls: string[] = [];
  return {
    calls,
    pragma(source: string): unknown {
      calls.push(source);
      if (calls.length <= refusals) throw refusal();
      return 'wal';
    },
  };
}

test('a switch refused as busy by another connection is tried again until it succeeds', async () => {
  const database = refusingDatabase(3);
  const waits: number[] = [];
  await switchToWalMode(database, {
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
  assert.deepEqual(database.calls, Array(4).fill('journal_mode = WAL'));
  assert.equal(waits.length, 3);
});

test("a switch still refused when the time is up fails with SQLite's error", async () => {
  let now = 0;
  const database = refusingDatabase(Infinity);
  await assert.rejects(
    switchToWalMode(database, {
      withinMs: 1000,
      clock: () => now,
      sleep: (ms) => {
        now += ms;
        return Promise.resolve();
      },
    }),
    { code: 'SQLITE_BUSY' },
  );
  assert.ok(database.calls.length > 1);
});

test('any other failure is not tried again', async () => {
  const database = refusingDatabase(1, () =>
    Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' }),
  );
  await assert.rejects(switchToWalMode(database, { sleep: () => Promise.resolve() }), {
    code: 'SQLITE_NOTADB',
  });
  assert.equal(database.calls.length, 1);
});
