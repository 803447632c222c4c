import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { json, withApi } from './test-support/api-fixtures.js';
import { auditEvent as event } from '../../test-support/storage-values.js';

interface AuditPage {
  events: Record<string, unknown>[];
  nextBefore: number | null;
}

describe('admin API: audit', () => {
  test('newest first, filtered, paged backwards with nextBefore', async () => {
    await withApi(async (api) => {
      const day = Date.parse('2024-05-01T00:00:00Z');
      await api.storage.audit.append(event(day - 1));
      await api.storage.audit.append(
        event(day, { outcome: 'failure', code: 'token_failed', reference: 'R1' }),
      );
      await api.storage.audit.append(event(day + 1, { userId: 'bob' }));
      await api.storage.audit.append(event(day + 2, { kind: 'sign_out' }));

      const all = await api.inject({ method: 'GET', url: '/_sso/api/audit', headers: api.token });
      assert.equal(all.statusCode, 200);
      const page = json<AuditPage>(all);
      assert.equal(page.events.length, 4);
      assert.equal(page.nextBefore, null);
      assert.deepEqual(page.events[0], {
        ...page.events[0],
        kind: 'sign_out',
        at: '2024-05-01T00:00:00.002Z',
      });

      const filtered = await api.inject({
        method: 'GET',
        url: '/_sso/api/audit?kind=sign_in&since=2024-05-01&until=2024-05-01T00:00:00.002Z&userId=alice',
        headers: api.token,
      });
      const only = json<AuditPage>(filtered).events;
      assert.equal(only.length, 1);
      assert.equal(only[0]?.code, 'token_failed');
      assert.equal(only[0].reference, 'R1');

      const first = json<AuditPage>(
        await api.inject({ method: 'GET', url: '/_sso/api/audit?limit=3', headers: api.token }),
      );
      assert.equal(first.events.length, 3);
      assert.equal(typeof first.nextBefore, 'number');
      const second = json<AuditPage>(
        await api.inject({
          method: 'GET',
          url: `/_sso/api/audit?limit=3&before=${first.nextBefore}`,
          headers: api.token,
        }),
      );
      assert.deepEqual(
        second.events.map((e) => e.at),
        ['2024-04-30T23:59:59.999Z'],
      );
      assert.equal(second.nextBefore, null);
    });
  });

  test('a reference id finds its one event, however the user typed it', async () => {
    await withApi(async (api) => {
      // Recent events: the retention sweep may run meanwhile and prunes old ones.
      const at = Date.parse('2024-05-01T11:00:00Z');
      await api.storage.audit.append(event(at, { outcome: 'failure', reference: '7KQ2M9XC4D' }));
      await api.storage.audit.append(
        event(at + 1, { outcome: 'failure', reference: 'ABCDEFGH12' }),
      );
      await api.storage.audit.append(event(at + 2));
      const found = await api.inject({
        method: 'GET',
        url: '/_sso/api/audit?reference=%207kq2m9xc4d%20',
        headers: api.token,
      });
      assert.equal(found.statusCode, 200, found.body);
      const events = json<AuditPage>(found).events;
      assert.deepEqual(
        events.map((e) => e.reference),
        ['7KQ2M9XC4D'],
      );
      const none = await api.inject({
        method: 'GET',
        url: '/_sso/api/audit?reference=0000000000',
        headers: api.token,
      });
      assert.deepEqual(json<AuditPage>(none).events, []);
    });
  });

  test('bad filters name the field', async () => {
    await withApi(async (api) => {
      const cases: [string, string][] = [
        ['since=yesterday', 'query.since'],
        ['until=2024-13-45', 'query.until'],
        ['kind=login', 'query.kind'],
        ['outcome=maybe', 'query.outcome'],
        ['limit=501', 'query.limit'],
        ['before=0', 'query.before'],
        ['reference=not-a-ref', 'query.reference'],
      ];
      for (const [query, field] of cases) {
        const response = await api.inject({
          method: 'GET',
          url: `/_sso/api/audit?${query}`,
          headers: api.token,
        });
        assert.equal(response.statusCode, 400, query);
        const body = json<{
          error: { code: string; message: string; problems: { field: string }[] };
        }>(response);
        assert.equal(body.error.code, 'request_invalid');
        assert.match(body.error.message, new RegExp(`^${field.replace('.', '\\.')}:`));
        assert.equal(body.error.problems[0]?.field, field);
      }
    });
  });

  test('anonymous and non-admin callers are refused', async () => {
    await withApi(async (api) => {
      assert.equal((await api.inject({ method: 'GET', url: '/_sso/api/audit' })).statusCode, 401);
      const { cookie } = await api.signIn('alice', false);
      assert.equal(
        (await api.inject({ method: 'GET', url: '/_sso/api/audit', headers: cookie })).statusCode,
        403,
      );
    });
  });
});
