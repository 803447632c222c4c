import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import {
  clientSecret,
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

describe('OpenID Provider: refresh tokens, with rotation', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startProviderGateway();
    await registerClient(gw, 'app', { refreshTokens: true });
    await registerClient(gw, 'plain');
  });
  after(() => gw.close());

  async function tokensFor(clientId: string) {
    const config = await client.discovery(
      new URL(gw.url),
      clientId,
      undefined,
      client.ClientSecretBasic(clientSecret),
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- a loopback test over plain HTTP
      { execute: [client.allowInsecureRequests] },
    );
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      state,
    });
    const { arrived } = await followTo(browser, url.href);
    assert.ok(arrived !== undefined);
    const tokens = await client.authorizationCodeGrant(config, arrived, { expectedState: state });
    return { config, tokens };
  }

  const userinfoStatus = async (accessToken: string) =>
    (
      await fetch(`${gw.url}/_sso/oidc/userinfo`, {
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).status;

  test('each refresh gives a new refresh token; the old one presented again revokes the grant', async () => {
    const { config, tokens } = await tokensFor('app');
    const first = tokens.refresh_token ?? '';
    assert.ok(first.length >= 43);
    const refreshed = await client.refreshTokenGrant(config, first);
    const second = refreshed.refresh_token ?? '';
    assert.notEqual(second, first);
    assert.equal(refreshed.claims()?.sub, 'alice');
    assert.equal(await userinfoStatus(refreshed.access_token), 200);

    await assert.rejects(client.refreshTokenGrant(config, first), { error: 'invalid_grant' });
    // The replay revoked everything of the grant: the newer refresh token and the access tokens.
    await assert.rejects(client.refreshTokenGrant(config, second), { error: 'invalid_grant' });
    assert.equal(await userinfoStatus(refreshed.access_token), 401);
    assert.equal(await userinfoStatus(tokens.access_token), 401);
  });

  test('a client without refresh tokens gets none, and may not refresh', async () => {
    const { config, tokens } = await tokensFor('plain');
    assert.equal(tokens.refresh_token, undefined);
    await assert.rejects(client.refreshTokenGrant(config, 'anything-at-all'), {
      error: 'unauthorized_client',
    });
  });

  test("another client's refresh token is refused", async () => {
    const { tokens } = await tokensFor('app');
    const { config: plain } = await tokensFor('plain');
    await assert.rejects(client.refreshTokenGrant(plain, tokens.refresh_token ?? ''), {
      error: 'unauthorized_client',
    });
    await registerClient(gw, 'other', { refreshTokens: true });
    const { config: other } = await tokensFor('other');
    await assert.rejects(client.refreshTokenGrant(other, tokens.refresh_token ?? ''), {
      error: 'invalid_grant',
    });
  });
});
