import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiFixture } from './test-support/api-fixtures.js';
import { json, withApi } from './test-support/api-fixtures.js';
import { entryAnswer, entryListAnswer } from './response-schemas.js';
import { entryWithId } from '../../core/test-support/entries.js';
import { auditEvent } from '../../test-support/storage-values.js';

interface ErrorBody {
  error: { code: string; message: string; problems?: { field: string; message: string }[] };
}
type Entry = Record<string, unknown>;

async function create(api: ApiFixture, id: string, overrides: Record<string, unknown> = {}) {
  const response = await api.inject({
    method: 'POST',
    url: '/_sso/api/entries',
    headers: api.token,
    payload: entryWithId(id, overrides),
  });
  assert.equal(response.statusCode, 201, response.body);
}

async function post(api: ApiFixture, url: string, method: 'POST' | 'DELETE' = 'POST') {
  return api.inject({ method, url, headers: api.token });
}

async function lastChange(api: ApiFixture) {
  const [event] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
  return event;
}

describe('admin API: entry state', () => {
  test('disable and enable: the registry sees it at once, the change is audited', async () => {
    await withApi(async (api) => {
      await create(api, 'corp');
      const disabled = await post(api, '/_sso/api/entries/corp/disable');
      assert.equal(disabled.statusCode, 200);
      const { entry } = entryAnswer.parse(json(disabled));
      assert.equal(entry.enabled, false);
      assert.equal((await api.gateway.entries.get('corp'))?.enabled, false);
      const event = await lastChange(api);
      assert.equal(event?.actor, 'token:ci');
      assert.deepEqual(event.detail, {
        action: 'disable',
        fields: ['enabled'],
        changes: [{ field: 'enabled', before: true, after: false }],
        sessionsEnded: 0,
      });
      // The secret was kept through the write.
      assert.equal(await api.storage.entries.hasSecret('corp'), true);

      const enabled = await post(api, '/_sso/api/entries/corp/enable');
      assert.equal(json<{ entry: Entry }>(enabled).entry.enabled, true);
      assert.equal((await api.gateway.entries.get('corp'))?.enabled, true);

      // Enabling an enabled entry changes nothing and records nothing.
      const before = (await api.storage.audit.list({ kind: 'entry_change', limit: 50 })).length;
      assert.equal((await post(api, '/_sso/api/entries/corp/enable')).statusCode, 200);
      assert.equal(
        (await api.storage.audit.list({ kind: 'entry_change', limit: 50 })).length,
        before,
      );
    });
  });

  test('one default at a time; disabling the default unsets it; a disabled entry cannot become it', async () => {
    await withApi(async (api) => {
      await create(api, 'one');
      await create(api, 'two');
      await post(api, '/_sso/api/entries/one/default');
      assert.equal((await api.gateway.entries.defaultEntry())?.id, 'one');
      const second = await post(api, '/_sso/api/entries/two/default');
      assert.equal(second.statusCode, 200);
      assert.equal(json<{ entry: Entry }>(second).entry.isDefault, true);
      assert.equal((await api.storage.entries.get('one'))?.input.isDefault, false);
      assert.equal((await api.gateway.entries.defaultEntry())?.id, 'two');
      assert.deepEqual((await lastChange(api))?.detail, {
        action: 'set_default',
        fields: ['isDefault'],
        changes: [{ field: 'isDefault', after: true }],
      });

      const disabled = await post(api, '/_sso/api/entries/two/disable');
      assert.deepEqual(
        [
          json<{ entry: Entry }>(disabled).entry.enabled,
          json<{ entry: Entry }>(disabled).entry.isDefault,
        ],
        [false, false],
      );
      assert.equal(await api.gateway.entries.defaultEntry(), undefined);

      const refused = await post(api, '/_sso/api/entries/two/default');
      assert.equal(refused.statusCode, 409);
      assert.equal(json<ErrorBody>(refused).error.code, 'entry_default_disabled');

      await post(api, '/_sso/api/entries/one/default');
      const unset = await post(api, '/_sso/api/entries/one/default', 'DELETE');
      assert.equal(unset.statusCode, 200);
      assert.equal(json<{ entry: Entry }>(unset).entry.isDefault, false);
      assert.equal(await api.gateway.entries.defaultEntry(), undefined);
      assert.equal((await lastChange(api))?.detail?.action, 'unset_default');
    });
  });

  test('an unknown entry is entry_unknown; a bad id names path.id', async () => {
    await withApi(async (api) => {
      for (const [method, url] of [
        ['POST', '/_sso/api/entries/nope/enable'],
        ['POST', '/_sso/api/entries/nope/disable'],
        ['POST', '/_sso/api/entries/nope/default'],
        ['DELETE', '/_sso/api/entries/nope/default'],
      ] as const) {
        const response = await post(api, url, method);
        assert.equal(response.statusCode, 404, url);
        assert.equal(json<ErrorBody>(response).error.code, 'entry_unknown');
      }
      const long = await post(api, '/_sso/api/entries/Not_A_Slug/enable');
      assert.equal(long.statusCode, 400);
      assert.equal(json<ErrorBody>(long).error.problems?.[0]?.field, 'path.id');
    });
  });

  test('entry-order sets the chooser order; anything but every id once is refused by name', async () => {
    await withApi(async (api) => {
      for (const id of ['a', 'b', 'c']) await create(api, id);
      const reordered = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entry-order',
        headers: api.token,
        payload: { ids: ['c', 'a', 'b'] },
      });
      assert.equal(reordered.statusCode, 200);
      const { entries } = entryListAnswer.parse(json(reordered));
      assert.deepEqual(
        entries.map((entry) => entry.id),
        ['c', 'a', 'b'],
      );
      assert.deepEqual(
        (await api.gateway.entries.list()).map((entry) => entry.id),
        ['c', 'a', 'b'],
      );
      const event = await lastChange(api);
      assert.equal(event?.entryId, null);
      assert.deepEqual(event.detail, {
        action: 'reorder',
        fields: ['position'],
        order: ['c', 'a', 'b'],
      });

      const cases: [unknown, RegExp][] = [
        [{ ids: ['a', 'b'] }, /body\.ids: must list every entry exactly once; missing "c"/],
        [{ ids: ['a', 'b', 'c', 'd'] }, /body\.ids: names no entry "d"/],
        [{ ids: ['a', 'a', 'b', 'c'] }, /body\.ids: lists "a" more than once/],
        [{ ids: 'a,b,c' }, /^body\.ids:/],
        [{ ids: ['a', 'b', 'c'], extra: 1 }, /^body\.extra: is not an accepted parameter/],
        [[1], /^body:/],
      ];
      for (const [payload, message] of cases) {
        const response = await api.inject({
          method: 'PUT',
          url: '/_sso/api/entry-order',
          headers: api.token,
          payload: payload as object,
        });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(json<ErrorBody>(response).error.code, 'request_invalid');
        assert.match(json<ErrorBody>(response).error.message, message);
      }
      assert.deepEqual(
        (await api.storage.entries.list()).map((record) => record.input.id),
        ['c', 'a', 'b'],
      );
    });
  });

  test('the list shows when each entry last signed someone in, and last failed', async () => {
    await withApi(async (api) => {
      await create(api, 'corp');
      const never = json<{ entries: Entry[] }>(
        await api.inject({ method: 'GET', url: '/_sso/api/entries', headers: api.token }),
      );
      assert.deepEqual(
        [never.entries[0]?.lastSuccessfulSignInAt, never.entries[0]?.lastFailedSignInAt],
        [null, null],
      );
      await api.storage.audit.append(
        auditEvent(Date.parse('2024-05-01T10:00:00Z'), {
          outcome: 'success',
        }),
      );
      await api.storage.audit.append(
        auditEvent(Date.parse('2024-05-01T11:00:00Z'), {
          outcome: 'success',
        }),
      );
      await api.storage.audit.append(
        auditEvent(Date.parse('2024-05-01T09:00:00Z'), {
          outcome: 'failure',
          code: 'token_parse_failed',
        }),
      );
      await api.storage.audit.append(
        auditEvent(Date.parse('2024-05-01T12:00:00Z'), {
          outcome: 'success',
          entryId: 'other',
        }),
      );
      const list = json<{ entries: Entry[] }>(
        await api.inject({ method: 'GET', url: '/_sso/api/entries', headers: api.token }),
      );
      assert.equal(list.entries[0]?.lastSuccessfulSignInAt, '2024-05-01T11:00:00.000Z');
      assert.equal(list.entries[0].lastFailedSignInAt, '2024-05-01T09:00:00.000Z');
    });
  });
});
