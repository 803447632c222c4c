import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayStorage } from '../../app/open-storage.js';
import type { ProviderGrantStore } from './storage/types.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import {
  followTo,
  plainAuthorizeUrl,
  postToTokenEndpoint,
  redirectUri,
  registerClient,
  startProviderGateway,
  userinfoStatus,
} from './test-support/provider-fixture.js';

/**
 * A code or refresh token is redeemed in the transaction that adds the
 * tokens it is exchanged for (token-endpoint.ts redeemWithTokens): when
 * the exchange fails after the redemption, the redemption is undone with
 * the tokens, so the client's retry is answered with tokens, not taken for
 * a replay that revokes the grant.
 */
describe('OpenID Provider: a token exchange whose writes fail half-way', () => {
  let gw: TestGateway;
  /**
   * While set, a redemption fails once it is made, whichever store (the
   * request's or its unit's) makes it: the failure that comes after it.
   */
  let failing = false;
  const failAfter = async <T>(redeemed: Promise<T>): Promise<T> => {
    const outcome = await redeemed;
    if (failing) throw new Error('the database went away after the redemption');
    return outcome;
  };
  const refusing = (store: ProviderGrantStore): ProviderGrantStore => ({
    ...store,
    writeTogether: (work) => store.writeTogether((unit) => work(refusing(unit))),
    redeemCode: (...presented) => failAfter(store.redeemCode(...presented)),
    redeemRefreshToken: (...presented) => failAfter(store.redeemRefreshToken(...presented)),
  });
  before(async () => {
    gw = await startProviderGateway({
      wrapStorage: (storage: GatewayStorage): GatewayStorage => ({
        ...storage,
        providerGrants: refusing(storage.providerGrants),
      }),
    });
    await registerClient(gw, 'app', { refreshTokens: true });
  });
  after(() => gw.close());

  /** A token request that fails after its redemption, then the same request again. */
  async function failedThenRetried(fields: Record<string, string>) {
    failing = true;
    const failed = await postToTokenEndpoint(gw, fields).finally(() => {
      failing = false;
    });
    assert.equal(failed.status, 500);
    await failed.arrayBuffer();
    const retried = await postToTokenEndpoint(gw, fields);
    return { status: retried.status, body: (await retried.json()) as Record<string, string> };
  }

  async function code(): Promise<string> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const { arrived } = await followTo(browser, plainAuthorizeUrl(gw.url));
    assert.ok(arrived !== undefined);
    return arrived.searchParams.get('code') ?? '';
  }

  test('a code exchange failing after the redemption leaves the code for the retry', async () => {
    const retried = await failedThenRetried({
      grant_type: 'authorization_code',
      code: await code(),
      redirect_uri: redirectUri,
    });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(await userinfoStatus(gw.url, retried.body.access_token ?? ''), 200);
  });

  test('a refresh failing after the redemption leaves the refresh token for the retry', async () => {
    const first = await postToTokenEndpoint(gw, {
      grant_type: 'authorization_code',
      code: await code(),
      redirect_uri: redirectUri,
    });
    const tokens = (await first.json()) as Record<string, string>;
    assert.equal(first.status, 200);
    const retried = await failedThenRetried({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    // The grant lives on: what was issued before the failure still works.
    assert.equal(await userinfoStatus(gw.url, tokens.access_token ?? ''), 200);
    assert.equal(await userinfoStatus(gw.url, retried.body.access_token ?? ''), 200);
  });
});
