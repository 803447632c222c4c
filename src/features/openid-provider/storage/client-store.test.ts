import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../../test-support/storage-fixtures.js';
import type { OidcClientRecord } from './types.js';

const grafana: OidcClientRecord = {
  clientId: 'grafana',
  secretHash: 'hash-one',
  name: 'Grafana',
  redirectUris: ['https://grafana.example.com/login/generic_oauth'],
  postLogoutRedirectUris: ['https://grafana.example.com/login'],
  backchannelLogoutUri: null,
  frontchannelLogoutUri: 'https://grafana.example.com/logout/frontchannel',
  frontchannelLogoutSessionRequired: true,
  allowedEntries: [],
  allowedUsers: [],
  allowedGroups: ['ops'],
  refreshTokens: false,
  subjectType: 'public',
  consent: false,
  createdAt: 10,
  updatedAt: 10,
};

describe('ProviderClientStore', () => {
  test('create, get, list, update, replace the secret, delete', async () => {
    await withTestStorage(async ({ providerClients }) => {
      assert.equal(await providerClients.create(grafana), true);
      assert.equal(await providerClients.create({ ...grafana, name: 'again' }), false);
      const spa = { ...grafana, clientId: 'spa', secretHash: null, name: 'SPA' };
      assert.equal(await providerClients.create(spa), true);
      assert.deepEqual(await providerClients.get('grafana'), grafana);
      assert.equal(await providerClients.get('nobody'), undefined);
      assert.deepEqual(
        (await providerClients.list()).map((client) => client.clientId),
        ['grafana', 'spa'],
      );

      const settings: OidcClientRecord = {
        ...grafana,
        allowedUsers: ['alice'],
        refreshTokens: true,
        subjectType: 'pairwise',
        consent: true,
      };
      assert.equal(await providerClients.update('grafana', settings, 20), true);
      assert.equal(await providerClients.update('nobody', settings, 20), false);
      assert.deepEqual(await providerClients.get('grafana'), { ...settings, updatedAt: 20 });

      assert.equal(await providerClients.replaceSecretHash('grafana', 'hash-two', 30), true);
      assert.equal((await providerClients.get('grafana'))?.secretHash, 'hash-two');
      // A public client has no secret to replace: it stays public.
      assert.equal(await providerClients.replaceSecretHash('spa', 'hash-three', 30), false);
      assert.equal((await providerClients.get('spa'))?.secretHash, null);

      assert.equal(await providerClients.delete('spa'), true);
      assert.equal(await providerClients.delete('spa'), false);
      assert.equal(await providerClients.get('spa'), undefined);
    });
  });

  test("a client deleted takes its grants, codes and tokens along, and no other client's", async () => {
    await withTestStorage(async ({ providerClients, providerGrants }) => {
      const grant = (clientId: string, grantId: string) => ({
        grantId,
        clientId,
        userRowId: 1,
        scope: 'openid',
        entryId: null,
        authTime: 10,
        expiresAt: 1_000,
      });
      for (const clientId of ['grafana', 'spa']) {
        await providerClients.create({ ...grafana, clientId });
        const held = grant(clientId, `grant-${clientId}`);
        await providerGrants.addGrant({
          grantId: held.grantId,
          clientId,
          userRowId: 1,
          subject: 'alice',
          entryId: null,
          signInHash: `sign-in-${clientId}`,
          sid: `sid-${clientId}`,
          createdAt: 10,
        });
        await providerGrants.addCode({
          ...held,
          codeHash: `code-${clientId}`,
          redirectUri: grafana.redirectUris[0] ?? '',
          codeChallenge: null,
          nonce: null,
        });
        await providerGrants.addTokens(
          held.grantId,
          {
            access: { ...held, tokenHash: `access-${clientId}` },
            refresh: { ...held, tokenHash: `refresh-${clientId}` },
          },
          10,
        );
      }
      assert.equal(await providerClients.delete('grafana'), true);
      await providerClients.create(grafana);
      assert.deepEqual(await providerGrants.liveScopes('grafana', 1, 20), []);
      assert.equal(await providerGrants.accessToken('access-grafana', 20), undefined);
      const redeemed = await providerGrants.redeemCode('code-grafana', 'grafana', 20);
      assert.equal(redeemed.outcome, 'unknown');
      const refreshed = await providerGrants.redeemRefreshToken('refresh-grafana', 'grafana', 20);
      assert.equal(refreshed.outcome, 'unknown');
      assert.deepEqual(await providerGrants.liveScopes('spa', 1, 20), ['openid']);
      assert.equal(await providerGrants.grant('grant-grafana'), undefined);
      assert.equal((await providerGrants.grant('grant-spa'))?.clientId, 'spa');
    });
  });

  test('stores the known settings only, whatever else the object carries', async () => {
    await withTestStorage(async ({ providerClients }) => {
      const extra = { ...grafana, extra: 'not a setting' } as OidcClientRecord;
      await providerClients.create(extra);
      assert.deepEqual(await providerClients.get('grafana'), grafana);
    });
  });
});
