import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiToken, json, withApi } from '../admin-api/test-support/api-fixtures.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { freePort } from '../../test-support/free-port.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { ExampleExtensionModule, RunningExtension } from './example-extension.js';
import { loadExampleExtension } from './example-extension.js';

const secret = 'EXT-CANARY-5e3c-0123456789';

const extensionEntry = (overrides: Record<string, unknown> = {}) => ({
  id: 'acme',
  name: 'Acme',
  enabled: true,
  type: 'extension',
  extensionUrl: 'https://ext.corp.example/acme',
  extensionSecret: secret,
  extensionSettings: { serverUrl: 'https://acme.example' },
  ...overrides,
});

interface CheckAnswer {
  ok: boolean;
  latencyMs?: number;
  error?: { code: string; message: string };
}

/**
 * Entries of type extension through the admin API: the secret is write-only
 * and sealed like the appsecret, kept or cleared on update as the appsecret
 * is, and never in an answer or the audit; "test connection" calls the
 * extension's signed health route.
 */
describe('admin API: entries of type extension', () => {
  let example: ExampleExtensionModule;
  let extension: RunningExtension;
  before(async () => {
    example = await loadExampleExtension();
    extension = await example.startExtension({ secret });
  });
  after(async () => extension.close());

  test('create, read, keep, replace and clear the extension secret', async () => {
    await withApi(async (api) => {
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: extensionEntry(),
      });
      assert.equal(created.statusCode, 201, created.body);
      const { entry } = json<{ entry: Record<string, unknown> }>(created);
      assert.equal(entry.type, 'extension');
      assert.equal(entry.extensionUrl, 'https://ext.corp.example/acme');
      assert.deepEqual(entry.extensionSettings, { serverUrl: 'https://acme.example' });
      assert.equal(entry.extensionSecretSet, true);
      assert.equal('extensionSecret' in entry, false);
      const compiled = await api.gateway.entries.get('acme');
      assert.equal(compiled?.type === 'extension' && compiled.extension.secret, secret);

      // Absent keeps the stored secret; the entry stays valid without resending it.
      const withoutSecret = extensionEntry({ name: 'Acme 2', extensionSecret: undefined });
      const kept = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/acme',
        headers: api.token,
        payload: withoutSecret,
      });
      assert.equal(kept.statusCode, 200, kept.body);
      assert.equal((await api.storage.entries.get('acme'))?.input.extensionSecret, secret);

      // Live validation of the stored entry counts its stored secret too.
      const validated = await api.inject({
        method: 'POST',
        url: '/_sso/api/entry-validation',
        headers: api.token,
        payload: { ...extensionEntry({ extensionSecret: '' }), existingId: 'acme' },
      });
      assert.equal(validated.statusCode, 200, validated.body);
      assert.equal(json<{ ok: boolean }>(validated).ok, true, validated.body);

      // A kept secret stays with its origin: moving the entry elsewhere needs it again.
      const moved = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/acme',
        headers: api.token,
        payload: extensionEntry({
          extensionUrl: 'https://attacker.example/acme',
          extensionSecret: undefined,
        }),
      });
      assert.equal(moved.statusCode, 400, moved.body);
      assert.match(moved.body, /extensionSecret/);
      assert.equal(
        (await api.storage.entries.get('acme'))?.input.extensionUrl,
        'https://ext.corp.example/acme',
      );

      const replaced = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/acme',
        headers: api.token,
        payload: extensionEntry({ extensionSecret: `${secret}-new` }),
      });
      assert.equal(replaced.statusCode, 200);
      assert.equal((await api.storage.entries.get('acme'))?.input.extensionSecret, `${secret}-new`);

      // Null clears it, and an extension entry without a secret is refused.
      const cleared = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/acme',
        headers: api.token,
        payload: extensionEntry({ extensionSecret: null }),
      });
      assert.equal(cleared.statusCode, 400);
      assert.match(cleared.body, /extensionSecret/);

      const events = await api.storage.audit.list({ kind: 'entry_change', limit: 10 });
      const fields = events.map((event) => event.detail?.fields as string[]);
      // Newest first: replace reports the secret by name; keeping it does not.
      assert.ok(fields[0]?.includes('extensionSecret'));
      assert.ok(!fields[1]?.includes('extensionSecret'));
      assert.ok(fields[2]?.includes('extensionSecret'));
      assert.doesNotMatch(JSON.stringify(events), new RegExp(secret));
      for (const body of api.bodies) assert.doesNotMatch(body, new RegExp(secret));
    });
  });

  test('an extension entry needs no OAuth2 template, but a URL and a strong secret', async () => {
    await withApi(async (api) => {
      const refused = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: extensionEntry({
          extensionUrl: 'ftp://ext.example',
          extensionSecret: 'short',
          extensionSettings: { 'bad key': 'x' },
        }),
      });
      assert.equal(refused.statusCode, 400);
      const { error } = json<{ error: { problems: { field: string }[] } }>(refused);
      assert.deepEqual(error.problems.map(({ field }) => field).sort(), [
        'extensionSecret',
        'extensionSettings.bad key',
        'extensionUrl',
      ]);
    });
  });

  test('test connection: ok with the latency, or the coded reason', async () => {
    // A gateway on the wall clock: the extension checks timestamps against its own.
    const gw = await startTestGateway({
      entries: () => [extensionEntry({ id: 'stored', extensionUrl: extension.url })],
    });
    try {
      await gw.storage.apiTokens.create({
        id: 't',
        name: 'check',
        tokenHash: sha256Base64url(apiToken),
        createdAt: Date.now(),
      });
      const call = (
        body: Record<string, unknown>,
        headers = { authorization: `Bearer ${apiToken}` },
      ) =>
        gw.app.inject({ method: 'POST', url: '/_sso/api/extension-check', headers, payload: body });
      const check = async (body: Record<string, unknown>) => {
        const response = await call(body);
        assert.equal(response.statusCode, 200, response.body);
        assert.doesNotMatch(response.body, new RegExp(secret));
        return json<CheckAnswer>(response);
      };
      const up = await check({ extensionUrl: extension.url, extensionSecret: secret });
      assert.equal(up.ok, true, JSON.stringify(up));
      assert.equal(typeof up.latencyMs, 'number');

      const wrong = await check({
        extensionUrl: extension.url,
        extensionSecret: 'a-secret-the-extension-does-not-share',
      });
      assert.deepEqual(wrong.ok, false);
      assert.equal(wrong.error?.code, 'extension_bad_signature');

      const down = await check({
        extensionUrl: `http://127.0.0.1:${await freePort()}`,
        extensionSecret: secret,
      });
      assert.equal(down.error?.code, 'extension_unavailable');

      // Without a secret, the stored one of the entry is used, for its own origin only.
      assert.equal((await check({ extensionUrl: extension.url, entryId: 'stored' })).ok, true);
      const elsewhere = await call({
        extensionUrl: 'https://elsewhere.example',
        entryId: 'stored',
      });
      assert.equal(elsewhere.statusCode, 400);
      assert.match(elsewhere.body, /extensionSecret/);

      const noSecret = await call({ extensionUrl: extension.url });
      assert.equal(noSecret.statusCode, 400);
      assert.match(noSecret.body, /extensionSecret/);
      assert.equal((await call({ extensionUrl: extension.url, entryId: 'nope' })).statusCode, 404);
      assert.equal(
        (
          await call(
            { extensionUrl: extension.url, extensionSecret: secret },
            { authorization: '' },
          )
        ).statusCode,
        401,
      );
    } finally {
      await gw.close();
    }
  });
});
