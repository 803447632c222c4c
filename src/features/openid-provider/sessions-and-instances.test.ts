import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { rotateSigningKey } from './signing-keys.js';
import {
  codeFlow,
  discoverProvider,
  followTo,
  redirectUri,
  registerClient,
  secondGateway,
  startSharedProviderGateway,
  tokenRequest,
} from './test-support/provider-fixture.js';

const signedOutUri = 'http://127.0.0.1:9/signed-out';

describe('OpenID Provider: fresh sign-ins, sign-out, rotation, two instances', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startSharedProviderGateway();
    await registerClient(gw, 'app');
    await registerClient(gw, 'asks', { consent: true });
  });
  after(() => gw.close());

  const discover = (issuer = gw.url) => discoverProvider(issuer, 'app');
  const signIn = codeFlow;

  const throughEntry = (visited: readonly string[]) =>
    visited.some((url) => url.startsWith(gw.example.url));

  test('prompt=login and an exceeded max_age sign in again; otherwise no sign-in', async () => {
    const config = await discover();
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const first = await signIn(config, browser);
    assert.ok(throughEntry(first.visited));
    const quiet = await signIn(config, browser);
    assert.ok(!throughEntry(quiet.visited), 'a session answers with no sign-in');
    const forced = await signIn(config, browser, { prompt: 'login' });
    assert.ok(throughEntry(forced.visited), 'prompt=login signs in again');
    const aged = await signIn(config, browser, { max_age: '0' });
    assert.ok(throughEntry(aged.visited), 'max_age=0 signs in again, and comes back');
    const authTime = aged.tokens.claims()?.auth_time ?? 0;
    assert.ok(authTime >= (first.tokens.claims()?.auth_time ?? Infinity));
  });

  test('a marker of a fresh sign-in written into the request by the client changes nothing', async () => {
    const config = await discover();
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    await signIn(config, browser);
    for (const marker of ['0', `0.${'A'.repeat(43)}`]) {
      const forced = await signIn(config, browser, {
        prompt: 'login',
        ssogate_signed_in_after: marker,
      });
      assert.ok(throughEntry(forced.visited), `prompt=login signs in again (${marker})`);
      const aged = await signIn(config, browser, { max_age: '0', ssogate_signed_in_after: marker });
      assert.ok(throughEntry(aged.visited), `max_age=0 signs in again (${marker})`);
    }
  });

  test('RP-initiated logout ends the session and returns to an exact post-logout URI', async () => {
    const config = await discover();
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const { tokens } = await signIn(config, browser);
    const idToken = tokens.id_token ?? '';
    const logout = (parameters: Record<string, string>) =>
      `${gw.url}/_sso/oidc/logout?${new URLSearchParams(parameters).toString()}`;

    const refusals = [
      {},
      { id_token_hint: idToken, post_logout_redirect_uri: `${signedOutUri}/x` },
      { id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example/' },
      { id_token_hint: await foreignIdToken(gw.url), post_logout_redirect_uri: signedOutUri },
    ];
    for (const parameters of refusals) {
      const answer = await followTo(browser, logout(parameters), signedOutUri);
      assert.equal(answer.arrived, undefined);
      assert.equal(answer.status, 400);
      assert.match(answer.body, /oidc_logout_invalid/);
    }
    // Nothing ended: still signed in.
    assert.ok(!throughEntry((await signIn(config, browser, { prompt: 'none' })).visited));

    const url = client.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: signedOutUri,
      state: 'bye',
    });
    const { arrived } = await followTo(browser, url.href, signedOutUri);
    assert.equal(arrived?.searchParams.get('state'), 'bye');
    const silent = await followTo(
      browser,
      client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        prompt: 'none',
      }).href,
    );
    assert.equal(silent.arrived?.searchParams.get('error'), 'login_required');
  });

  test('after a key rotation the relying party still checks id_tokens', async () => {
    const config = await discover();
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const before = await signIn(config, browser);
    await rotateSigningKey(gw.storage, gw.gateway.clock());
    const after = await signIn(config, browser);
    assert.equal(after.tokens.claims()?.sub, before.tokens.claims()?.sub);
  });

  test('two gateways on one database share clients, codes and keys', async () => {
    const other = await secondGateway(gw);
    try {
      const browser = gw.browser();
      await signInAtExample(browser, gw.example.url);
      const config = await discover();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        state: 'two',
      });
      const { arrived } = await followTo(browser, url.href);
      const code = arrived?.searchParams.get('code') ?? '';
      // The code issued by the first is redeemed at the second.
      const response = await tokenRequest(other.url, 'app', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      });
      assert.equal(response.status, 200);
      const { id_token: idToken } = (await response.json()) as { id_token: string };
      const { kid } = decodeProtectedHeader(idToken);
      const keysHere = (await (await fetch(`${gw.url}/_sso/oidc/jwks`)).json()) as {
        keys: { kid: string }[];
      };
      assert.ok(
        keysHere.keys.some((key) => key.kid === kid),
        'signed with the shared key',
      );
    } finally {
      await other.close();
    }
  });

  test('a consent page shown by one gateway is answered by another, once', async () => {
    const other = await secondGateway(gw);
    try {
      const browser = gw.browser();
      await signInAtExample(browser, gw.example.url);
      const url = `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'asks',
        redirect_uri: redirectUri,
        scope: 'openid',
        state: 'across',
      }).toString()}`;
      const page = await followTo(browser, url);
      const token = /name="consent" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      // The same browser at the second gateway: its cookies go there too.
      for (const [name, value] of browser.cookies(gw.url))
        browser.setCookie(other.url, name, value);
      const post = () =>
        browser.exchange('POST', `${other.url}/_sso/oidc/consent`, {
          consent: token,
          decision: 'allow',
        });
      const allowed = await post();
      assert.equal(allowed.status, 303);
      const back = new URL(allowed.headers.get('location') ?? '');
      assert.equal(back.searchParams.get('state'), 'across');
      assert.ok(back.searchParams.get('code'));
      const replayed = await post();
      assert.equal(replayed.status, 400);
    } finally {
      await other.close();
    }
  });
});

/** An id_token of the right issuer, signed by a key that is not the provider's. */
async function foreignIdToken(issuer: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT({ sub: 'alice', aud: 'app', iss: issuer })
    .setProtectedHeader({ alg: 'RS256', kid: 'foreign' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
}
