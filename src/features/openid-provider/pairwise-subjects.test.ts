import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import {
  followTo,
  redirectUri,
  registerClient,
  secondGateway,
  startSharedProviderGateway,
  tokenRequest,
} from './test-support/provider-fixture.js';
import { userClaims } from './token-endpoint.js';

/** Another host than redirectUri's (127.0.0.1): another sector. */
const otherSectorUri = 'http://localhost:9/callback';
/** The same host as redirectUri's, another path: the same sector. */
const sameSectorUri = 'http://127.0.0.1:9/elsewhere/callback';

describe('OpenID Provider: pairwise subjects', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startSharedProviderGateway();
    await registerClient(gw, 'public-app');
    await registerClient(gw, 'pairwise-one', { subjectType: 'pairwise' });
    await registerClient(gw, 'pairwise-two', {
      subjectType: 'pairwise',
      redirectUris: [otherSectorUri],
      postLogoutRedirectUris: ['http://localhost:9/signed-out'],
    });
    await registerClient(gw, 'pairwise-same-sector', {
      subjectType: 'pairwise',
      redirectUris: [sameSectorUri],
    });
  });
  after(() => gw.close());

  /**
   * A sign-in of the browser through the client: the id_token's claims,
   * userinfo's answer, the id_token; the code redeemed and userinfo asked
   * at `at`.
   */
  async function signIn(browser: TestBrowser, clientId: string, uri = redirectUri, at = gw.url) {
    const authorize = `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: uri,
      scope: 'openid profile email',
      state: 'pairwise',
    }).toString()}`;
    const { arrived } = await followTo(browser, authorize, uri);
    const code = arrived?.searchParams.get('code');
    assert.ok(typeof code === 'string', `a code for ${clientId}`);
    const response = await tokenRequest(at, clientId, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: uri,
    });
    assert.equal(response.status, 200);
    const tokens = (await response.json()) as { id_token: string; access_token: string };
    const info = await fetch(`${at}/_sso/oidc/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(info.status, 200);
    return {
      claims: decodeJwt(tokens.id_token),
      userinfo: (await info.json()) as Record<string, unknown>,
      idToken: tokens.id_token,
    };
  }

  async function signedIn(username = 'alice'): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    return browser;
  }

  test('discovery names both subject types', async () => {
    const discovery = (await (
      await fetch(`${gw.url}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    assert.deepEqual(discovery.subject_types_supported, ['public', 'pairwise']);
  });

  test("a public client keeps the user's id; id_token and userinfo agree", async () => {
    const { claims, userinfo } = await signIn(await signedIn(), 'public-app');
    assert.equal(claims.sub, 'alice');
    assert.equal(userinfo.sub, 'alice');
  });

  test('two clients of two hosts get two subjects, neither the user id; id_token and userinfo agree', async () => {
    const browser = await signedIn();
    const one = await signIn(browser, 'pairwise-one');
    const two = await signIn(browser, 'pairwise-two', otherSectorUri);
    for (const { claims, userinfo } of [one, two]) {
      assert.match(String(claims.sub), /^[A-Za-z0-9_-]{43}$/);
      assert.equal(userinfo.sub, claims.sub);
      // Only the subject is pairwise: the other claims are the user's own.
      assert.deepEqual([userinfo.name, userinfo.email], ['Alice Example', 'alice@example.test']);
    }
    assert.notEqual(one.claims.sub, two.claims.sub);
    // Two clients of one host are one sector: the same subject (OpenID Connect Core §8.1).
    const sameSector = await signIn(browser, 'pairwise-same-sector', sameSectorUri);
    assert.equal(sameSector.claims.sub, one.claims.sub);
    // Another user of the same client: another subject.
    const bob = await signIn(await signedIn('bob'), 'pairwise-one');
    assert.notEqual(bob.claims.sub, one.claims.sub);
  });

  test('a user without a display name: a pairwise client gets no name, not the user id', async () => {
    await signIn(await signedIn(), 'public-app');
    const alice = await gw.storage.users.findByUserId('alice');
    assert.ok(alice !== undefined);
    const nameless = { ...alice, userName: null };
    const pairwise = await gw.storage.providerClients.get('pairwise-one');
    const open = await gw.storage.providerClients.get('public-app');
    assert.ok(pairwise !== undefined && open !== undefined);
    const claims = userClaims(gw.gateway, pairwise, nameless);
    assert.equal(claims.name, undefined);
    assert.ok(!Object.values(claims).includes('alice'), JSON.stringify(claims));
    assert.equal(userClaims(gw.gateway, open, nameless).name, 'alice');
  });

  test('one client gets one subject across sign-ins and on a second instance', async () => {
    const first = await signIn(await signedIn(), 'pairwise-one');
    const again = await signIn(await signedIn(), 'pairwise-one');
    assert.equal(again.claims.sub, first.claims.sub);
    const other = await secondGateway(gw);
    try {
      // The code issued by the first instance, its tokens and userinfo from the second.
      const there = await signIn(await signedIn(), 'pairwise-one', redirectUri, other.url);
      assert.equal(there.claims.sub, first.claims.sub);
      assert.equal(there.userinfo.sub, first.claims.sub);
    } finally {
      await other.close();
    }
  });

  test("RP-initiated logout with a pairwise client's id_token ends the gateway session", async () => {
    const browser = await signedIn();
    const { idToken } = await signIn(browser, 'pairwise-two', otherSectorUri);
    const signedOut = 'http://localhost:9/signed-out';
    const logout = `${gw.url}/_sso/oidc/logout?${new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: signedOut,
    }).toString()}`;
    assert.ok((await followTo(browser, logout, signedOut)).arrived !== undefined);
    const silent = `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'pairwise-two',
      redirect_uri: otherSectorUri,
      scope: 'openid',
      prompt: 'none',
    }).toString()}`;
    const { arrived } = await followTo(browser, silent, otherSectorUri);
    assert.equal(arrived?.searchParams.get('error'), 'login_required', 'the session ended');
  });
});
