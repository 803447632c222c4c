import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import {
  assertRaceLeftNothing,
  clientSecret,
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
  tokenRequestsAtOnce,
  userinfoStatus as userinfoStatusAt,
} from './test-support/provider-fixture.js';

/** Requests at once: enough that several land while the first is being answered. */
const racers = 12;

describe('OpenID Provider: refresh tokens, with rotation', () => {
  let gw: TestGateway;
  /**
   * While set, the token endpoint waits for it once a code or refresh token
   * is redeemed with its tokens (their transaction committed), before the
   * answer: the winner of a race is held until the others have answered,
   * the order in which several processes can answer.
   */
  let issuing: Promise<void> | undefined;
  before(async () => {
    gw = await startProviderGateway({
      wrapStorage: (storage) => ({
        ...storage,
        providerGrants: {
          ...storage.providerGrants,
          async writeTogether(work) {
            const done = await storage.providerGrants.writeTogether(work);
            await issuing;
            return done;
          },
        },
      }),
    });
    await registerClient(gw, 'app', { refreshTokens: true });
    await registerClient(gw, 'plain');
  });
  after(() => gw.close());

  /** Signs alice in and follows a code flow back to the client, the code not yet exchanged. */
  async function arrivedFor(clientId: string) {
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
    return { config, arrived, state };
  }

  /**
   * The same grant presented by `racers` token requests at once, the winner
   * held until the others have answered: nothing works afterwards.
   */
  async function raceLeavesNothing(
    fields: Record<string, string>,
    before: readonly string[],
  ): Promise<void> {
    let othersAnswered = () => {};
    issuing = new Promise<void>((resolve) => {
      othersAnswered = resolve;
    });
    let answered = 0;
    const answers = await tokenRequestsAtOnce(gw.url, 'app', fields, racers, () => {
      answered += 1;
      if (answered === racers - 1) othersAnswered();
    }).finally(() => {
      othersAnswered();
      issuing = undefined;
    });
    await assertRaceLeftNothing(gw.url, 'app', fields, answers, before);
  }

  test('one refresh token presented many times at once: at most one new chain, and it is dead', async () => {
    const { tokens } = await tokensFor('app');
    await raceLeavesNothing(
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' },
      [tokens.access_token],
    );
  });

  test('one code presented many times at once: at most one answer, and its tokens are dead', async () => {
    const code = (await arrivedFor('app')).arrived.searchParams.get('code') ?? '';
    await raceLeavesNothing(
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      [],
    );
  });

  async function tokensFor(clientId: string) {
    const { config, arrived, state } = await arrivedFor(clientId);
    const tokens = await client.authorizationCodeGrant(config, arrived, { expectedState: state });
    return { config, tokens };
  }

  const userinfoStatus = (accessToken: string) => userinfoStatusAt(gw.url, accessToken);

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

  test("a client's rules changed reach its grants: code, refresh and userinfo refused", async () => {
    const ruled = await registerClient(gw, 'ruled', {
      refreshTokens: true,
      allowedUsers: ['alice'],
    });
    const { config, tokens } = await tokensFor('ruled');
    const pending = await arrivedFor('ruled');
    // A record carries its settings; the store keeps the known ones only.
    assert.ok(
      await gw.storage.providerClients.update('ruled', { ...ruled, allowedUsers: ['bob'] }, 1),
    );
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token ?? ''), {
      error: 'invalid_grant',
    });
    assert.equal(await userinfoStatus(tokens.access_token), 401);
    await assert.rejects(
      client.authorizationCodeGrant(pending.config, pending.arrived, {
        expectedState: pending.state,
      }),
      { error: 'invalid_grant' },
    );
    const refused = await gw.storage.audit.list({ kind: 'oidc_token', limit: 5 });
    assert.equal(refused[0]?.code, 'oidc_user_refused');
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
