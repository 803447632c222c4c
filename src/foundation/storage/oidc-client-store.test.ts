import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
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

describe('OidcClientStore', () => {
  test('create, get, list, update, replace the secret, delete', async () => {
    await withTestStorage(async ({ oidcClients }) => {
      assert.equal(await oidcClients.create(grafana), true);
      assert.equal(await oidcClients.create({ ...grafana, name: 'again' }), false);
      const spa = { ...grafana, clientId: 'spa', secretHash: null, name: 'SPA' };
      assert.equal(await oidcClients.create(spa), true);
      assert.deepEqual(await oidcClients.get('grafana'), grafana);
      assert.equal(await oidcClients.get('nobody'), undefined);
      assert.deepEqual(
        (await oidcClients.list()).map((client) => client.clientId),
        ['grafana', 'spa'],
      );

      const settings: OidcClientRecord = {
        ...grafana,
        allowedUsers: ['alice'],
        refreshTokens: true,
        subjectType: 'pairwise',
        consent: true,
      };
      assert.equal(await oidcClients.update('grafana', settings, 20), true);
      assert.equal(await oidcClients.update('nobody', settings, 20), false);
      assert.deepEqual(await oidcClients.get('grafana'), { ...settings, updatedAt: 20 });

      assert.equal(await oidcClients.replaceSecretHash('grafana', 'hash-two', 30), true);
      assert.equal((await oidcClients.get('grafana'))?.secretHash, 'hash-two');
      // A public client has no secret to replace: it stays public.
      assert.equal(await oidcClients.replaceSecretHash('spa', 'hash-three', 30), false);
      assert.equal((await oidcClients.get('spa'))?.secretHash, null);

      assert.equal(await oidcClients.delete('spa'), true);
      assert.equal(await oidcClients.delete('spa'), false);
      assert.equal(await oidcClients.get('spa'), undefined);
    });
  });

  test("a client deleted takes its grants, codes and tokens along, and no other client's", async () => {
    await withTestStorage(async ({ oidcClients, oidcGrants }) => {
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
        await oidcClients.create({ ...grafana, clientId });
        const held = grant(clientId, `grant-${clientId}`);
        await oidcGrants.addGrant({
          grantId: held.grantId,
          clientId,
          userRowId: 1,
          subject: 'alice',
          entryId: null,
          signInHash: `sign-in-${clientId}`,
          sid: `sid-${clientId}`,
          createdAt: 10,
        });
        await oidcGrants.addCode({
          ...held,
          codeHash: `code-${clientId}`,
          redirectUri: grafana.redirectUris[0] ?? '',
          codeChallenge: null,
          nonce: null,
        });
        await oidcGrants.addTokens(
          held.grantId,
          {
            access: { ...held, tokenHash: `access-${clientId}` },
            refresh: { ...held, tokenHash: `refresh-${clientId}` },
          },
          10,
        );
      }
      assert.equal(await oidcClients.delete('grafana'), true);
      await oidcClients.create(grafana);
      assert.deepEqual(await oidcGrants.liveScopes('grafana', 1, 20), []);
      assert.equal(await oidcGrants.accessToken('access-grafana', 20), undefined);
      const redeemed = await oidcGrants.redeemCode('code-grafana', 'grafana', 20);
      assert.equal(redeemed.outcome, 'unknown');
      const refreshed = await oidcGrants.redeemRefreshToken('refresh-grafana', 'grafana', 20);
      assert.equal(refreshed.outcome, 'unknown');
      assert.deepEqual(await oidcGrants.liveScopes('spa', 1, 20), ['openid']);
      assert.equal(await oidcGrants.grant('grant-grafana'), undefined);
      assert.equal((await oidcGrants.grant('grant-spa'))?.clientId, 'spa');
    });
  });

  test('stores the known settings only, whatever else the object carries', async () => {
    await withTestStorage(async ({ oidcClients }) => {
      const extra = { ...grafana, extra: 'not a setting' } as OidcClientRecord;
      await oidcClients.create(extra);
      assert.deepEqual(await oidcClients.get('grafana'), grafana);
    });
  });
});
