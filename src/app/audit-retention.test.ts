import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { pino } from 'pino';
import type { Storage } from '../foundation/storage/types.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import { auditEvent } from '../test-support/storage-values.js';
import { pruneAuditLog } from './audit-retention.js';
import { startExpirySweep } from './expiry-sweep.js';

const day = 24 * 60 * 60_000;
const now = Date.UTC(2030, 0, 1);

/** `count` sign-in events, the first at `from`, one minute apart, users u0, u1, ... */
async function appendEvents(storage: Storage, from: number, count: number, prefix = 'u') {
  for (let i = 0; i < count; i += 1) {
    await storage.audit.append(auditEvent(from + i * 60_000, { userId: `${prefix}${i}` }));
  }
}

async function storedUsers(storage: Storage): Promise<string[]> {
  const events = await storage.audit.list({ limit: 100_000 });
  return events.map((event) => event.userId ?? '').reverse();
}

/** The storage, with every pruning batch's deleted count recorded. */
function countingBatches(storage: Storage): { storage: Storage; batches: number[] } {
  const batches: number[] = [];
  return {
    batches,
    storage: {
      ...storage,
      async pruneAudit(batch) {
        const deleted = await storage.pruneAudit(batch);
        if (deleted !== undefined) batches.push(deleted);
        return deleted;
      },
    },
  };
}

describe('audit retention', () => {
  test('events older than the retention go, recent ones stay', async () => {
    await withTestStorage(async (storage) => {
      await appendEvents(storage, now - 200 * day, 3, 'old');
      await appendEvents(storage, now - 179 * day, 2, 'recent');
      const pruned = await pruneAuditLog(storage, { maxAgeMs: 180 * day, maxRows: undefined }, now);
      assert.equal(pruned, 3);
      assert.deepEqual(await storedUsers(storage), ['recent0', 'recent1']);
    });
  });

  test('a large backlog goes in several small batches, each a separate statement', async () => {
    await withTestStorage(async (storage) => {
      await appendEvents(storage, now - 400 * day, 230, 'old');
      await appendEvents(storage, now - day, 5, 'new');
      const counting = countingBatches(storage);
      const pruned = await pruneAuditLog(
        counting.storage,
        { maxAgeMs: 180 * day, maxRows: undefined },
        now,
        { batchSize: 50 },
      );
      assert.equal(pruned, 230);
      assert.deepEqual(counting.batches, [50, 50, 50, 50, 30]);
      assert.deepEqual(await storedUsers(storage), ['new0', 'new1', 'new2', 'new3', 'new4']);
    });
  });

  test('sign-ins write their audit events while a large backlog is pruned', async () => {
    await withTestStorage(async (storage) => {
      const backlog = 20_000;
      // One commit per thousand events: a commit each would take most of the test.
      for (let from = 0; from < backlog; from += 1000) {
        await storage.writeTogether(async ({ audit }) => {
          for (let i = from; i < from + 1000; i += 1)
            await audit.append(auditEvent(now - 400 * day + i, { userId: 'old' }));
        });
      }
      const state = { pruning: true };
      const writtenAt: number[] = [];
      const pruning = pruneAuditLog(storage, { maxAgeMs: 180 * day, maxRows: undefined }, now);
      // Sign-ins arrive as I/O and timers do, each on a later turn of the
      // event loop: they are served only if pruning gives the loop back.
      const writer = (async () => {
        for (let i = 0; state.pruning; i += 1) {
          await delay(1);
          await storage.audit.append(auditEvent(now, { userId: `meanwhile${i}` }));
          writtenAt.push(performance.now());
        }
      })();
      const pruned = await pruning;
      const prunedAt = performance.now();
      state.pruning = false;
      await writer;
      assert.equal(pruned, backlog);
      // Forty batches of 500: sign-ins go on between them, not after the last.
      const meanwhile = writtenAt.filter((at) => at < prunedAt).length;
      assert.ok(meanwhile >= 5, `${meanwhile} audit writes completed while pruning`);
      const kept = await storedUsers(storage);
      assert.ok(kept.every((userId) => userId.startsWith('meanwhile')));
    });
  });

  test('the row cap keeps only the newest events, whatever their age', async () => {
    await withTestStorage(async (storage) => {
      await appendEvents(storage, now - day, 12);
      const counting = countingBatches(storage);
      const pruned = await pruneAuditLog(
        counting.storage,
        { maxAgeMs: undefined, maxRows: 5 },
        now,
        { batchSize: 3 },
      );
      assert.equal(pruned, 7);
      assert.deepEqual(counting.batches, [3, 3, 1]);
      assert.deepEqual(await storedUsers(storage), ['u7', 'u8', 'u9', 'u10', 'u11']);
      // Under the cap, nothing more goes.
      assert.equal(await pruneAuditLog(storage, { maxAgeMs: undefined, maxRows: 5 }, now), 0);
    });
  });

  test('age and row cap together: an event goes when either says so', async () => {
    await withTestStorage(async (storage) => {
      await appendEvents(storage, now - 100 * day, 2, 'old');
      await appendEvents(storage, now - day, 4, 'new');
      await pruneAuditLog(storage, { maxAgeMs: 30 * day, maxRows: 3 }, now);
      assert.deepEqual(await storedUsers(storage), ['new1', 'new2', 'new3']);
    });
  });

  test('without a retention nothing is deleted', async () => {
    await withTestStorage(async (storage) => {
      await appendEvents(storage, now - 4000 * day, 3);
      const pruned = await pruneAuditLog(storage, { maxAgeMs: undefined, maxRows: undefined }, now);
      assert.equal(pruned, 0);
      assert.equal((await storedUsers(storage)).length, 3);
    });
  });

  test('the expiry sweep prunes the audit log with the configured retention', async () => {
    await withTestStorage(async (storage) => {
      await appendEvents(storage, now - 181 * day, 2, 'old');
      await appendEvents(storage, now - day, 1, 'new');
      const sweep = startExpirySweep({
        storage,
        clock: () => now,
        idleMs: 60_000,
        log: pino({ level: 'silent' }),
        auditRetention: { maxAgeMs: 180 * day, maxRows: undefined },
      });
      await sweep.settled();
      await sweep.stop();
      assert.deepEqual(await storedUsers(storage), ['new0']);
    });
  });
});
