import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import {
  authorizationRequest,
  discoverProvider,
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

/** The hidden fields of a form_post page, in order. */
function hiddenFields(body: string): [string, string][] {
  const unescape = (value: string) =>
    value
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  return [...body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)].map((match) => [
    unescape(match[1] ?? ''),
    unescape(match[2] ?? ''),
  ]);
}

/**
 * The response modes of the authorization endpoint: query (the default),
 * form_post (OAuth 2.0 Form Post Response Mode), refused others; the
 * relying party is npm's openid-client, which reads a form_post answer
 * from the POST it receives.
 */
describe('OpenID Provider: response modes', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startProviderGateway();
    await registerClient(gw, 'app');
  });
  after(() => gw.close());

  test('discovery names query and form_post', async () => {
    const config = await discoverProvider(gw.url, 'app');
    assert.deepEqual(config.serverMetadata().response_modes_supported, ['query', 'form_post']);
  });

  test('form_post: a page posts the code to the client, which redeems it', async () => {
    const config = await discoverProvider(gw.url, 'app');
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const { url, verifier, state, nonce } = await authorizationRequest(config, {
      response_mode: 'form_post',
    });
    // Through the gateway's sign-in at the entry, to the form_post page.
    const answer = await browser.open(url.href);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const { body } = answer;
    assert.match(body, new RegExp(`<form method="post" action="${redirectUri}">`));
    const fields = hiddenFields(body);
    assert.deepEqual(
      fields.map(([name]) => name),
      ['code', 'state', 'iss'],
    );
    // Only the page's own script runs, and its form may post to the client's origin only.
    const policy = answer.headers.get('content-security-policy') ?? '';
    const scriptNonce = /script-src 'nonce-([\w-]+)'/.exec(policy)?.[1];
    assert.ok(scriptNonce !== undefined, policy);
    assert.ok(body.includes(`<script nonce="${scriptNonce}">`));
    assert.match(policy, /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);

    const posted = new Request(redirectUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const tokens = await client.authorizationCodeGrant(config, posted, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(tokens.claims()?.sub, 'alice');

    // An error goes the same way: prompt=none without a session.
    const stranger = await gw
      .browser()
      .exchange('GET', url.href.replace('state=', 'prompt=none&state='));
    const refusal = Object.fromEntries(hiddenFields(await stranger.text()));
    assert.deepEqual([refusal.error, refusal.state], ['login_required', state]);
  });

  test('query is the default; fragment and unknown modes are refused as invalid_request', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const authorize = (responseMode: string) =>
      `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'app',
        redirect_uri: redirectUri,
        scope: 'openid',
        state: 's',
        response_mode: responseMode,
      }).toString()}`;
    assert.ok((await followTo(browser, authorize('query'))).arrived?.searchParams.get('code'));
    for (const mode of ['fragment', 'web_message', '']) {
      const { arrived } = await followTo(browser, authorize(mode));
      assert.equal(arrived?.searchParams.get('error'), 'invalid_request', mode);
      assert.equal(arrived.searchParams.get('code'), null);
    }
  });
});

/** The form_post page in Chromium, which holds it to its CSP: its script submits the form. */
describe('OpenID Provider: a form_post answer, in Chromium', { skip: chromiumSkip }, () => {
  let application: EchoUpstream;
  let gw: TestGateway;
  let chromium: Browser;
  before(async () => {
    application = await startEchoUpstream();
    gw = await startProviderGateway();
    await registerClient(gw, 'wiki', { redirectUris: [`${application.url}/callback`] });
    chromium = await launchChromium();
  });
  after(async () => {
    await chromium.close();
    await gw.close();
    await application.close();
  });

  test('the page posts the code to the application by itself', async () => {
    const page = await (await chromium.newContext()).newPage();
    const authorize = `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'wiki',
      redirect_uri: `${application.url}/callback`,
      scope: 'openid',
      state: 'posted',
      response_mode: 'form_post',
    }).toString()}`;
    const arrival = page.waitForRequest(
      (request) => request.url() === `${application.url}/callback`,
    );
    // Signed in at the entry (the example server's form), the browser comes back.
    await page.goto(authorize);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const posted = await arrival;
    assert.equal(posted.method(), 'POST');
    const form = new URLSearchParams(posted.postData() ?? '');
    assert.equal(form.get('state'), 'posted');
    assert.ok((form.get('code') ?? '').length >= 43);
    assert.equal(form.get('iss'), gw.url);
  });
});
