import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../../../foundation/crypto/hash.js';
import { json, withApi } from '../../admin-api/test-support/api-fixtures.js';
import {
  oidcClientAnswer,
  oidcClientListAnswer,
  oidcClientSecretAnswer,
} from './client-answers.js';

interface ErrorBody {
  error: { code: string; problems?: { field: string }[] };
}

const grafana = {
  clientId: 'grafana',
  name: 'Grafana',
  redirectUris: ['https://grafana.example.com/login/generic_oauth'],
  allowedGroups: ['ops'],
};

describe('admin API: OpenID clients', () => {
  test('create shows the secret once, stores its hash; read, list, update, rotate, delete', async () => {
    await withApi(async (api) => {
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/oidc-clients',
        headers: api.token,
        payload: grafana,
      });
      assert.equal(created.statusCode, 201);
      const { client, secret } = oidcClientSecretAnswer.parse(json(created));
      assert.match(secret ?? '', /^ssgc_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(
        [
          client.public,
          client.postLogoutRedirectUris,
          client.backchannelLogoutUri,
          client.refreshTokens,
          client.subjectType,
          client.consent,
        ],
        [false, [], null, false, 'public', false],
      );
      assert.equal(
        (await api.storage.providerClients.get('grafana'))?.secretHash,
        sha256Base64url(secret ?? ''),
      );

      const read = await api.inject({
        method: 'GET',
        url: '/_sso/api/oidc-clients/grafana',
        headers: api.token,
      });
      assert.deepEqual(oidcClientAnswer.parse(json(read)).client, client);
      const list = await api.inject({
        method: 'GET',
        url: '/_sso/api/oidc-clients',
        headers: api.token,
      });
      assert.deepEqual(oidcClientListAnswer.parse(json(list)).clients, [client]);

      api.tick(1000);
      const updated = await api.inject({
        method: 'PUT',
        url: '/_sso/api/oidc-clients/grafana',
        headers: api.token,
        payload: { ...grafana, clientId: undefined, refreshTokens: true, allowedUsers: ['alice'] },
      });
      assert.equal(updated.statusCode, 200);
      const after = oidcClientAnswer.parse(json(updated)).client;
      assert.deepEqual(
        [after.public, after.refreshTokens, after.allowedUsers],
        [false, true, ['alice']],
      );
      assert.notEqual(after.updatedAt, client.updatedAt);

      const rotated = await api.inject({
        method: 'POST',
        url: '/_sso/api/oidc-clients/grafana/secret',
        headers: api.token,
      });
      assert.equal(rotated.statusCode, 200);
      const newSecret = oidcClientSecretAnswer.parse(json(rotated)).secret ?? '';
      assert.notEqual(newSecret, secret);
      assert.equal(
        (await api.storage.providerClients.get('grafana'))?.secretHash,
        sha256Base64url(newSecret),
      );

      const deleted = await api.inject({
        method: 'DELETE',
        url: '/_sso/api/oidc-clients/grafana',
        headers: api.token,
      });
      assert.equal(deleted.statusCode, 204);
      assert.equal(await api.storage.providerClients.get('grafana'), undefined);

      // Every change audited, never a secret's value or hash.
      const events = await api.storage.audit.list({ kind: 'client_change', limit: 10 });
      assert.deepEqual(
        events
          .map((event) => [event.actor, event.detail?.action, event.detail?.clientId])
          .reverse(),
        [
          ['token:ci', 'create', 'grafana'],
          ['token:ci', 'update', 'grafana'],
          ['token:ci', 'rotate_secret', 'grafana'],
          ['token:ci', 'delete', 'grafana'],
        ],
      );
      const everything =
        JSON.stringify(events) +
        api.bodies
          .join('\n')
          .replace(secret ?? '', '')
          .replace(newSecret, '');
      for (const value of [
        sha256Base64url(secret ?? ''),
        sha256Base64url(newSecret),
        'secretHash',
      ]) {
        assert.doesNotMatch(everything, new RegExp(value));
      }
      assert.doesNotMatch(JSON.stringify(events), new RegExp(`${secret ?? ''}|${newSecret}`));
    });
  });

  test('pairwise subjects and consent: saved and shown; pairwise needs redirect URIs on one host', async () => {
    await withApi(async (api) => {
      const twoHosts = [...grafana.redirectUris, 'https://grafana.other.example/callback'];
      const refused = await api.inject({
        method: 'POST',
        url: '/_sso/api/oidc-clients',
        headers: api.token,
        payload: { ...grafana, subjectType: 'pairwise', redirectUris: twoHosts },
      });
      assert.equal(refused.statusCode, 400);
      assert.equal(json<ErrorBody>(refused).error.code, 'oidc_client_sector_ambiguous');
      assert.equal(await api.storage.providerClients.get('grafana'), undefined);

      const oneHost = [...grafana.redirectUris, 'https://grafana.example.com:8443/other'];
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/oidc-clients',
        headers: api.token,
        payload: { ...grafana, subjectType: 'pairwise', consent: true, redirectUris: oneHost },
      });
      assert.equal(created.statusCode, 201);
      const { client } = oidcClientSecretAnswer.parse(json(created));
      assert.deepEqual([client.subjectType, client.consent], ['pairwise', true]);

      const settings = { ...grafana, clientId: undefined, subjectType: 'pairwise', consent: true };
      const spread = await api.inject({
        method: 'PUT',
        url: '/_sso/api/oidc-clients/grafana',
        headers: api.token,
        payload: { ...settings, redirectUris: twoHosts },
      });
      assert.equal(json<ErrorBody>(spread).error.code, 'oidc_client_sector_ambiguous');
      const unknownType = await api.inject({
        method: 'PUT',
        url: '/_sso/api/oidc-clients/grafana',
        headers: api.token,
        payload: { ...settings, subjectType: 'secret' },
      });
      assert.equal(unknownType.statusCode, 400);
      assert.equal(json<ErrorBody>(unknownType).error.problems?.[0]?.field, 'body.subjectType');
      // Back to public, the two hosts are fine.
      const publicAgain = await api.inject({
        method: 'PUT',
        url: '/_sso/api/oidc-clients/grafana',
        headers: api.token,
        payload: { ...settings, subjectType: 'public', consent: false, redirectUris: twoHosts },
      });
      assert.equal(publicAgain.statusCode, 200);
      const stored = await api.storage.providerClients.get('grafana');
      assert.deepEqual([stored?.subjectType, stored?.consent], ['public', false]);
    });
  });

  test('a public client has no secret, and none to rotate', async () => {
    await withApi(async (api) => {
      const created = await api.inject({
        method: 'POST',
        url: '/_sso/api/oidc-clients',
        headers: api.token,
        payload: { ...grafana, clientId: 'spa', public: true },
      });
      const { client, secret } = oidcClientSecretAnswer.parse(json(created));
      assert.deepEqual([client.public, secret], [true, null]);
      const rotated = await api.inject({
        method: 'POST',
        url: '/_sso/api/oidc-clients/spa/secret',
        headers: api.token,
      });
      assert.equal(rotated.statusCode, 409);
      assert.equal(json<ErrorBody>(rotated).error.code, 'oidc_client_public');
    });
  });

  test('coded refusals: taken id, unknown client, bad URIs, unknown entry', async () => {
    await withApi(async (api) => {
      const post = (payload: object) =>
        api.inject({ method: 'POST', url: '/_sso/api/oidc-clients', headers: api.token, payload });
      assert.equal((await post(grafana)).statusCode, 201);
      const again = await post(grafana);
      assert.deepEqual(
        [again.statusCode, json<ErrorBody>(again).error.code],
        [409, 'oidc_client_exists'],
      );

      for (const method of ['GET', 'DELETE'] as const) {
        const unknown = await api.inject({
          method,
          url: '/_sso/api/oidc-clients/nobody',
          headers: api.token,
        });
        assert.deepEqual(
          [unknown.statusCode, json<ErrorBody>(unknown).error.code],
          [404, 'oidc_client_unknown'],
        );
      }
      const unknownPut = await api.inject({
        method: 'PUT',
        url: '/_sso/api/oidc-clients/nobody',
        headers: api.token,
        payload: { name: 'x', redirectUris: ['https://x.example/cb'] },
      });
      assert.equal(json<ErrorBody>(unknownPut).error.code, 'oidc_client_unknown');

      const refusedUris = [
        'http://grafana.example.com/cb',
        'https://grafana.example.com/cb#part',
        'https://user:pw@grafana.example.com/cb',
        '/relative/cb',
        'javascript:alert(1)',
      ];
      for (const uri of refusedUris) {
        const refused = await post({ ...grafana, clientId: 'other', redirectUris: [uri] });
        assert.equal(refused.statusCode, 400, uri);
        const { code, problems } = json<ErrorBody>(refused).error;
        assert.deepEqual(
          [code, problems?.[0]?.field],
          ['request_invalid', 'body.redirectUris[0]'],
          uri,
        );
        const front = await post({ ...grafana, clientId: 'other', frontchannelLogoutUri: uri });
        assert.deepEqual(
          [front.statusCode, json<ErrorBody>(front).error.code],
          [400, 'request_invalid'],
          uri,
        );
        assert.equal(
          json<ErrorBody>(front).error.problems?.[0]?.field,
          'body.frontchannelLogoutUri',
          uri,
        );
      }
      const frontchannel = await post({
        ...grafana,
        clientId: 'front',
        frontchannelLogoutUri: 'http://127.0.0.1:8765/logout?tenant=a',
        frontchannelLogoutSessionRequired: true,
      });
      assert.equal(frontchannel.statusCode, 201);
      const { client: stored } = json<{ client: Record<string, unknown> }>(frontchannel);
      assert.deepEqual(
        [stored.frontchannelLogoutUri, stored.frontchannelLogoutSessionRequired],
        ['http://127.0.0.1:8765/logout?tenant=a', true],
      );
      // Loopback http is allowed, as for native applications (RFC 8252 §7.3).
      assert.equal(
        (await post({ ...grafana, clientId: 'native', redirectUris: ['http://127.0.0.1:8765/cb'] }))
          .statusCode,
        201,
      );

      const noEntry = await post({ ...grafana, clientId: 'other', allowedEntries: ['missing'] });
      assert.deepEqual(
        [noEntry.statusCode, json<ErrorBody>(noEntry).error.problems?.[0]?.field],
        [400, 'body.allowedEntries[0]'],
      );
      const badId = await post({ ...grafana, clientId: 'a b' });
      assert.equal(json<ErrorBody>(badId).error.problems?.[0]?.field, 'body.clientId');
    });
  });
});
