import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { auditEvent as event } from '../../test-support/storage-values.js';

describe('AuditStore', () => {
  test('append and read back every field, newest first', async () => {
    await withTestStorage(async ({ audit }) => {
      await audit.append(event(1));
      await audit.append(
        event(2, {
          kind: 'entry_change',
          outcome: 'failure',
          entryId: null,
          userId: null,
          actor: 'token:ci',
          code: 'entry_invalid',
          reference: 'ref-1',
          durationMs: null,
          detail: { field: 'tokenUrl', list: [1, 'two'], nested: { ok: false } },
        }),
      );
      const [second, first, ...rest] = await audit.list({ limit: 10 });
      assert.equal(rest.length, 0);
      assert.ok(first !== undefined && second !== undefined);
      assert.ok(second.id > first.id);
      assert.deepEqual(first, { id: first.id, ...event(1) });
      assert.deepEqual(second, {
        id: second.id,
        at: 2,
        kind: 'entry_change',
        outcome: 'failure',
        entryId: null,
        userId: null,
        actor: 'token:ci',
        code: 'entry_invalid',
        reference: 'ref-1',
        durationMs: null,
        detail: { field: 'tokenUrl', list: [1, 'two'], nested: { ok: false } },
      });
    });
  });

  test('filters by kind, entry, user, outcome and time, and pages with beforeId', async () => {
    await withTestStorage(async ({ audit }) => {
      await audit.append(event(100));
      await audit.append(event(200, { outcome: 'failure', code: 'state_invalid' }));
      await audit.append(event(300, { entryId: 'other', userId: 'bob' }));
      await audit.append(event(400, { kind: 'sign_out' }));
      await audit.append(event(500, { kind: 'user_change', actor: 'admin', entryId: null }));

      const ats = async (query: Parameters<typeof audit.list>[0]) =>
        (await audit.list(query)).map((e) => e.at);

      assert.deepEqual(await ats({ limit: 10 }), [500, 400, 300, 200, 100]);
      assert.deepEqual(await ats({ limit: 2 }), [500, 400]);
      assert.deepEqual(await ats({ limit: 10, kind: 'sign_in' }), [300, 200, 100]);
      assert.deepEqual(await ats({ limit: 10, entryId: 'other' }), [300]);
      assert.deepEqual(await ats({ limit: 10, userId: 'alice' }), [500, 400, 200, 100]);
      assert.deepEqual(await ats({ limit: 10, outcome: 'failure' }), [200]);
      assert.deepEqual(await ats({ limit: 10, since: 200, until: 400 }), [300, 200]);
      assert.deepEqual(await ats({ limit: 10, kind: 'sign_in', userId: 'alice' }), [200, 100]);

      const page1 = await audit.list({ limit: 2 });
      const last = page1.at(-1);
      assert.ok(last !== undefined);
      assert.deepEqual(await ats({ limit: 2, beforeId: last.id }), [300, 200]);
      const all = await audit.list({ limit: 10 });
      const oldest = all.at(-1);
      assert.ok(oldest !== undefined);
      assert.deepEqual(await ats({ limit: 10, beforeId: oldest.id }), []);
    });
  });

  test('lastSignIns: the latest success and failure of one entry, null for never', async () => {
    await withTestStorage(async ({ audit }) => {
      assert.deepEqual(await audit.lastSignIns('corp'), { success: null, failure: null });
      await audit.append(event(10));
      await audit.append(event(30));
      await audit.append(event(20, { outcome: 'failure', code: 'token_parse_failed' }));
      await audit.append(event(40, { entryId: 'other' }));
      await audit.append(event(50, { kind: 'entry_change', outcome: 'failure' }));
      assert.deepEqual(await audit.lastSignIns('corp'), { success: 30, failure: 20 });
      assert.deepEqual(await audit.lastSignIns('other'), { success: 40, failure: null });
    });
  });
});
