import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canarySecret, json, withApi } from './test-support/api-fixtures.js';
import { entryWithId } from '../../core/test-support/entries.js';
import { startForgingProvider } from '../../foundation/oidc/test-support/forging-provider.js';
import { freePort } from '../../test-support/free-port.js';

interface ErrorBody {
  error: { code: string; message: string; problems?: { field: string; message: string }[] };
}

describe('admin API: entries', () => {
  test('create, read, list: the secret is write-only, appsecretSet tells', async () => {
    await withApi(async (api) => {
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      assert.equal(created.statusCode, 201);
      assert.equal(created.headers['cache-control'], 'no-store');
      const { entry, warnings } = json<{ entry: Record<string, unknown>; warnings: string[] }>(
        created,
      );
      assert.deepEqual(warnings, []);
      assert.equal(entry.id, 'corp');
      assert.equal(entry.appsecretSet, true);
      assert.equal('appsecret' in entry, false);
      assert.equal(entry.createdAt, '2024-05-01T12:00:00.000Z');
      assert.equal(typeof entry.position, 'number');

      const read = await api.inject({
        method: 'GET',
        url: '/_sso/api/entries/corp',
        headers: api.token,
      });
      assert.equal(read.statusCode, 200);
      assert.deepEqual(json<{ entry: unknown }>(read).entry, entry);

      const list = await api.inject({
        method: 'GET',
        url: '/_sso/api/entries',
        headers: api.token,
      });
      assert.deepEqual(json<{ entries: unknown[] }>(list).entries, [entry]);
      // The registry was invalidated: the new entry signs in at once.
      assert.equal((await api.gateway.entries.get('corp'))?.appsecret, canarySecret);

      const [event] = await api.storage.audit.list({ kind: 'entry_change', limit: 10 });
      assert.equal(event?.actor, 'token:ci');
      assert.equal(event.entryId, 'corp');
      assert.deepEqual(event.detail?.action, 'create');
      assert.ok((event.detail.fields as string[]).includes('appsecret'));
      assert.doesNotMatch(JSON.stringify(event), new RegExp(canarySecret));
      // The audit log as the API shows it holds the change, never the value.
      const log = await api.inject({ method: 'GET', url: '/_sso/api/audit', headers: api.token });
      assert.match(log.body, /entry_change/);
      assertNoSecret(api.bodies);
    });
  });

  test('an entry that no longer compiles is listed as broken, with its problem, not dropped', async () => {
    await withApi(async (api) => {
      // Written straight into storage, past the validation of the API: as an
      // entry saved under looser rules of an older version would be.
      const stale = entryWithId('stale', { tokenParse: "JSON_GET($response, 'access_token'" });
      assert.equal(await api.storage.entries.create(stale as never, 0), true);
      const list = await api.inject({
        method: 'GET',
        url: '/_sso/api/entries',
        headers: api.token,
      });
      assert.equal(list.statusCode, 200);
      const [entry] = json<{ entries: Record<string, unknown>[] }>(list).entries;
      assert.equal(entry?.id, 'stale');
      assert.match(String(entry.broken), /tokenParse/);
      // Left out of sign-in, and reported at every load (the app logs it).
      const reported: string[] = [];
      api.gateway.entries.onBrokenEntry((entryId, problem) => {
        reported.push(`${entryId}: ${problem}`);
      });
      api.gateway.entries.invalidate();
      assert.equal(await api.gateway.entries.get('stale'), undefined);
      assert.equal(reported.length, 1);
      assert.match(reported[0] ?? '', /^stale: .*tokenParse/);
      assertNoSecret(api.bodies);
    });
  });

  test('provisioning.userIdScope is stored, shown and validated', async () => {
    await withApi(async (api) => {
      const create = (id: string, userIdScope: string) =>
        api.inject({
          method: 'POST',
          url: '/_sso/api/entries',
          headers: api.token,
          payload: { ...entryWithId(id), provisioning: { userIdScope } },
        });
      const created = await create('scoped', 'entry');
      assert.equal(created.statusCode, 201, created.body);
      const { entry } = json<{ entry: { provisioning: unknown } }>(created);
      assert.deepEqual(entry.provisioning, { userIdScope: 'entry' });
      assert.equal((await api.gateway.entries.get('scoped'))?.provisioning.userIdScope, 'entry');
      const refused = await create('odd', 'tenant');
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(
        json<ErrorBody>(refused).error.problems?.map(({ field }) => field),
        ['provisioning.userIdScope'],
      );
    });
  });

  test('an entry saved without ${state} is saved with its warning, and the audit trail keeps it', async () => {
    await withApi(async (api) => {
      const stateless = {
        authorizeUrl:
          'https://idp.example/authorize?client_id=${appid}&redirect_uri=${redirect_uri}',
      };
      for (const [method, url] of [
        ['POST', '/_sso/api/entries'],
        ['PUT', '/_sso/api/entries/corp'],
      ] as const) {
        const saved = await api.inject({
          method,
          url,
          headers: api.token,
          payload: entryWithId('corp', stateless),
        });
        assert.ok(saved.statusCode < 300, saved.body);
        const { warnings } = json<{ warnings: string[] }>(saved);
        assert.match(warnings[0] ?? '', /no \$\{state\}/);
        const [event] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
        assert.deepEqual(event?.detail?.warnings, warnings);
      }
      // An entry without warnings records none.
      await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      const [event] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
      assert.equal(event?.detail?.warnings, undefined);
    });
  });

  test('an invalid entry is refused with every problem and its field', async () => {
    await withApi(async (api) => {
      const response = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp', {
          name: '',
          tokenUrl: 'https://idp.example/t?c=${nope}',
          authorizeUrl: 'https://x.example/?s=${app_secret}',
        }),
      });
      assert.equal(response.statusCode, 400);
      const { error } = json<ErrorBody>(response);
      assert.equal(error.code, 'entry_invalid');
      const fields = (error.problems ?? []).map((p) => p.field);
      for (const field of ['name', 'tokenUrl', 'authorizeUrl'])
        assert.ok(fields.includes(field), field);
      assert.equal(await api.storage.entries.get('corp'), undefined);
      assertNoSecret(api.bodies);
    });
  });

  test('a taken id is entry_exists; a form body or a non-object is request_invalid', async () => {
    await withApi(async (api) => {
      await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      const again = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      assert.equal(again.statusCode, 409);
      assert.equal(json<ErrorBody>(again).error.code, 'entry_exists');

      const form = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: { ...api.token, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'id=x&name=y',
      });
      assert.equal(form.statusCode, 400);
      assert.equal(json<ErrorBody>(form).error.code, 'request_invalid');
      assert.match(json<ErrorBody>(form).error.message, /^body:/);

      const array = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: [1],
      });
      assert.equal(array.statusCode, 400);
      assert.match(json<ErrorBody>(array).error.message, /^body:/);
    });
  });

  test('an update without appsecret keeps it; null clears it; the id cannot change', async () => {
    await withApi(async (api) => {
      await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      const withoutSecret = { ...entryWithId('corp', { name: 'Renamed' }), appsecret: undefined };
      api.tick(1000);
      const kept = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: withoutSecret,
      });
      assert.equal(kept.statusCode, 200);
      const { entry } = json<{ entry: Record<string, unknown> }>(kept);
      assert.equal(entry.name, 'Renamed');
      assert.equal(entry.appsecretSet, true);
      assert.equal(entry.updatedAt, '2024-05-01T12:00:01.000Z');
      assert.equal(await api.storage.entries.hasSecret('corp'), true);
      assert.equal((await api.gateway.entries.get('corp'))?.name, 'Renamed');
      const [update] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
      // Each changed field with its value before and after, for the console's audit page.
      assert.deepEqual(update?.detail, {
        action: 'update',
        fields: ['name'],
        changes: [{ field: 'name', before: 'Entry corp', after: 'Renamed' }],
      });

      const mismatch = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: { ...withoutSecret, id: 'other' },
      });
      assert.equal(mismatch.statusCode, 400);
      assert.match(json<ErrorBody>(mismatch).error.message, /^id:/);

      const cleared = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: { ...withoutSecret, id: undefined, appsecret: null },
      });
      assert.equal(cleared.statusCode, 200);
      assert.equal(json<{ entry: Record<string, unknown> }>(cleared).entry.appsecretSet, false);
      assert.equal(await api.storage.entries.hasSecret('corp'), false);
      const [clear] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
      // A secret's change is recorded without its value, old or new.
      assert.deepEqual(clear?.detail, {
        action: 'update',
        fields: ['appsecret'],
        changes: [{ field: 'appsecret', before: 'set' }],
      });

      const invalid = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/corp',
        headers: api.token,
        payload: { ...withoutSecret, enabled: 'yes' },
      });
      assert.equal(invalid.statusCode, 400);
      assert.equal(json<ErrorBody>(invalid).error.problems?.[0]?.field, 'enabled');

      const unknown = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/nope',
        headers: api.token,
        payload: entryWithId('nope'),
      });
      assert.equal(unknown.statusCode, 404);
      assert.equal(json<ErrorBody>(unknown).error.code, 'entry_unknown');
      assertNoSecret(api.bodies);
    });
  });

  test("an OpenID Connect entry's answer carries its discovery: the endpoints found, or why not", async () => {
    const provider = await startForgingProvider();
    // Nothing listens there: discovery fails, and the answer says how.
    const silent = `http://127.0.0.1:${await freePort()}`;
    try {
      await withApi(
        async (api) => {
          const oidcEntry = (id: string, issuer: string) => ({
            id,
            name: `Entry ${id}`,
            enabled: true,
            appid: 'ssogate',
            appsecret: canarySecret,
            oidc: { issuer },
          });
          const discovered = async (id: string) => {
            const read = await api.inject({
              method: 'GET',
              url: `/_sso/api/entries/${id}`,
              headers: api.token,
            });
            return json<{ entry: { oidcDiscovery?: Record<string, unknown> | null } }>(read).entry
              .oidcDiscovery;
          };
          for (const payload of [
            oidcEntry('idp', provider.issuer),
            oidcEntry('down', silent),
            entryWithId('plain'),
          ]) {
            const created = await api.inject({
              method: 'POST',
              url: '/_sso/api/entries',
              headers: api.token,
              payload,
            });
            assert.equal(created.statusCode, 201, created.body);
          }

          assert.deepEqual(await discovered('idp'), {
            state: 'ok',
            fetchedAt: '2024-05-01T12:00:00.000Z',
            error: null,
            endpoints: {
              authorization: `${provider.issuer}/authorize`,
              token: `${provider.issuer}/token`,
              userInfo: `${provider.issuer}/userinfo`,
              jwks: `${provider.issuer}/jwks`,
              endSession: null,
            },
          });
          const down = await discovered('down');
          assert.equal(down?.state, 'failed');
          assert.equal(down.fetchedAt, null);
          assert.equal(down.endpoints, null);
          assert.equal((down.error as { code: string }).code, 'oidc_discovery_failed');
          assert.match((down.error as { message: string }).message, /ECONNREFUSED/);
          assert.equal(await discovered('plain'), null);
        },
        {},
        { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1' },
      );
    } finally {
      await provider.close();
    }
  });

  test('delete answers 204, then the entry is unknown everywhere', async () => {
    await withApi(async (api) => {
      await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp'),
      });
      assert.ok(await api.gateway.entries.get('corp'));
      const deleted = await api.inject({
        method: 'DELETE',
        url: '/_sso/api/entries/corp',
        headers: api.token,
      });
      assert.equal(deleted.statusCode, 204);
      assert.equal(await api.gateway.entries.get('corp'), undefined);
      const again = await api.inject({
        method: 'DELETE',
        url: '/_sso/api/entries/corp',
        headers: api.token,
      });
      assert.equal(again.statusCode, 404);
      const read = await api.inject({
        method: 'GET',
        url: '/_sso/api/entries/corp',
        headers: api.token,
      });
      assert.equal(json<ErrorBody>(read).error.code, 'entry_unknown');
      const [event] = await api.storage.audit.list({ kind: 'entry_change', limit: 1 });
      assert.deepEqual(event?.detail, { action: 'delete', fields: [], sessionsEnded: 0 });
    });
  });
});

/** The canary secret must appear in no response body, ever (docs/design.md#the-entry). */
function assertNoSecret(bodies: readonly string[]): void {
  assert.ok(bodies.length > 0);
  for (const body of bodies) assert.doesNotMatch(body, new RegExp(canarySecret));
}
