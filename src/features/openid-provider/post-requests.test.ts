import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import {
  authorizationRequest,
  discoverProvider,
  redirectUri,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

const signedOutUri = 'http://127.0.0.1:9/signed-out';

/**
 * The authorization and end-session endpoints take their parameters in a
 * POSTed form as well as in the query (OpenID Connect Core §3.1.2.1,
 * RP-Initiated Logout 1.0 §2), the relying party being npm's openid-client
 * (its authorization URL's parameters posted as the form).
 */
describe('OpenID Provider: POSTed authorization and end-session requests', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startProviderGateway();
    await registerClient(gw, 'app');
  });
  after(() => gw.close());

  /** The form of an authorization request with PKCE, state and nonce, as openid-client builds it. */
  async function authorizationForm(
    config: client.Configuration,
    extra: Record<string, string> = {},
  ) {
    const { url, ...rest } = await authorizationRequest(config, extra);
    return { form: Object.fromEntries(url.searchParams), ...rest };
  }

  /** Follows a POST's redirects with the browser until one leaves for `target`. */
  async function postTo(
    browser: TestBrowser,
    url: string,
    form: Record<string, string>,
    target: string,
  ) {
    let response = await browser.exchange('POST', url, form);
    for (let hop = 0; hop < 10; hop++) {
      const location = response.headers.get('location');
      if (location === null) return { status: response.status, body: await response.text() };
      await response.arrayBuffer();
      const next = new URL(location, url);
      if (next.href.startsWith(target)) return { status: response.status, arrived: next };
      response = await browser.exchange('GET', next.href);
    }
    throw new Error('too many redirects');
  }

  test('a POSTed authorization request is answered with a code the relying party redeems', async () => {
    const config = await discoverProvider(gw.url, 'app');
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const authorize = `${gw.url}/_sso/oidc/authorize`;

    // Signed in (the cookie came with the POST): the code comes straight back.
    const { form, verifier, state, nonce } = await authorizationForm(config);
    const answer = await postTo(browser, authorize, form, redirectUri);
    assert.equal(answer.status, 302);
    assert.ok(answer.arrived !== undefined, 'the browser comes back to the client');
    const tokens = await client.authorizationCodeGrant(config, answer.arrived, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(tokens.claims()?.sub, 'alice');

    // A cross-site POST comes without the SameSite=Lax cookie: the same request
    // as a GET, which a top-level navigation sends it with.
    const second = await authorizationForm(config, { prompt: 'none' });
    const withoutCookie = await fetch(authorize, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      body: new URLSearchParams(second.form),
    });
    assert.equal(withoutCookie.status, 303);
    const get = new URL(withoutCookie.headers.get('location') ?? '', authorize);
    assert.equal(get.pathname, '/_sso/oidc/authorize');
    assert.deepEqual(Object.fromEntries(get.searchParams), second.form);
    const silent = await postTo(browser, authorize, second.form, redirectUri);
    assert.ok(silent.arrived?.searchParams.get('code'), 'prompt=none answered with a code');

    // A POST whose client does not match gets the page, as a GET does.
    const wrong = await postTo(browser, authorize, { ...form, client_id: 'nobody' }, redirectUri);
    assert.equal(wrong.status, 400);
    assert.match(wrong.body ?? '', /oidc_authorization_invalid/);
  });

  test('a POSTed end-session request ends the session and returns to the client', async () => {
    const config = await discoverProvider(gw.url, 'app');
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const { form, verifier, state, nonce } = await authorizationForm(config);
    const signedIn = await postTo(browser, `${gw.url}/_sso/oidc/authorize`, form, redirectUri);
    assert.ok(signedIn.arrived !== undefined);
    const tokens = await client.authorizationCodeGrant(config, signedIn.arrived, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const endSession = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: signedOutUri,
      state: 'bye',
    });
    const logoutForm = Object.fromEntries(endSession.searchParams);

    // Without the cookie (cross-site): sent on as a GET, nothing ended yet.
    const withoutCookie = await fetch(`${gw.url}/_sso/oidc/logout`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(logoutForm),
    });
    assert.equal(withoutCookie.status, 303);
    const get = new URL(withoutCookie.headers.get('location') ?? '', gw.url);
    assert.deepEqual(Object.fromEntries(get.searchParams), logoutForm);

    const answer = await postTo(browser, `${gw.url}/_sso/oidc/logout`, logoutForm, signedOutUri);
    assert.equal(answer.arrived?.searchParams.get('state'), 'bye');
    const after = await authorizationForm(config, { prompt: 'none' });
    const silent = await postTo(browser, `${gw.url}/_sso/oidc/authorize`, after.form, redirectUri);
    assert.equal(silent.arrived?.searchParams.get('error'), 'login_required');

    // A POST without a valid hint ends nothing and gets the page.
    const refused = await postTo(browser, `${gw.url}/_sso/oidc/logout`, {}, signedOutUri);
    assert.equal(refused.status, 400);
    assert.match(refused.body ?? '', /oidc_logout_invalid/);
  });
});
