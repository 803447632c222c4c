import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';
import { waitUntil } from '../../test-support/wait-until.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import {
  postToTokenEndpoint,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

/**
 * Front-Channel Logout 1.0 in Chromium: the application on loopback
 * registers a front-channel logout URI on its own server, which records
 * every request. A sign-out at the gateway, or at its end-session endpoint,
 * lands on a page whose hidden frame loads that URI, with the `iss` and the
 * `sid` of the application's id_token; the page's CSP frame-src allows it.
 */
describe('front-channel logout, in Chromium', { skip: chromiumSkip }, () => {
  const step = storySteps();
  let application: EchoUpstream;
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let callback = '';
  let sid = '';
  let idToken = '';
  const logoutRequests = () => application.seen.filter((seen) => seen.url.startsWith('/fc-logout'));

  /** Signs in to the application through the gateway; keeps its id_token and sid. */
  async function signInToApplication(state: string, withPassword: boolean): Promise<void> {
    const authorize = `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'wiki',
      redirect_uri: callback,
      scope: 'openid',
      state,
    }).toString()}`;
    await page.goto(authorize);
    if (withPassword) {
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill('alice-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.waitForURL((url) => url.href.startsWith(callback));
    const code = new URL(page.url()).searchParams.get('code');
    assert.ok(code !== null, 'the application got a code');
    const answer = await postToTokenEndpoint(
      gw,
      { grant_type: 'authorization_code', code, redirect_uri: callback },
      'wiki',
    );
    assert.equal(answer.status, 200);
    idToken = ((await answer.json()) as { id_token: string }).id_token;
    const claims = Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString();
    sid = (JSON.parse(claims) as { sid: string }).sid;
    assert.ok(sid.length > 0);
  }

  /** Waits until the application's front-channel URI has been requested `count` times. */
  async function logoutRequested(count: number): Promise<URLSearchParams> {
    await waitUntil(() => logoutRequests().length >= count, {
      message: `the front-channel logout URI loaded ${count} times`,
      timeoutMs: 5000,
      intervalMs: 50,
    });
    const last = logoutRequests().at(-1);
    assert.equal(logoutRequests().length, count, 'the front-channel logout URI was loaded');
    assert.ok(last !== undefined);
    assert.equal(last.method, 'GET');
    return new URL(last.url, application.url).searchParams;
  }

  before(async () => {
    application = await startEchoUpstream();
    callback = `${application.url}/callback`;
    gw = await startProviderGateway();
    await registerClient(gw, 'wiki', {
      redirectUris: [callback],
      postLogoutRedirectUris: [`${application.url}/bye`],
      frontchannelLogoutUri: `${application.url}/fc-logout?app=wiki`,
      frontchannelLogoutSessionRequired: true,
    });
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
  });

  after(async () => {
    await browser.close();
    await gw.close();
    await application.close();
  });

  step(
    'signed out at the gateway, the signed-out page loads the URI with iss and sid',
    async () => {
      await signInToApplication('first', true);
      await page.goto(`${gw.url}/_sso/logout`);
      const answer = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Sign out here' }).click();
      const csp = (await answer).headers()['content-security-policy'] ?? '';
      assert.match(csp, new RegExp(`frame-src ${application.url}(;|$)`));
      await page.getByRole('heading', { name: 'You are signed out here.' }).waitFor();
      const query = await logoutRequested(1);
      assert.deepEqual(
        [query.get('app'), query.get('iss'), query.get('sid')],
        ['wiki', gw.url.replace(/\/+$/, ''), sid],
      );
    },
  );

  step('signed out at the end-session endpoint, the frame loads before the redirect', async () => {
    // Signed out "here", the upstream server still knows the user: no password asked.
    await signInToApplication('second', false);
    const endSession = `${gw.url}/_sso/oidc/logout?${new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${application.url}/bye`,
      state: 'done',
    }).toString()}`;
    await page.goto(endSession);
    const query = await logoutRequested(2);
    assert.deepEqual([query.get('iss'), query.get('sid')], [gw.url.replace(/\/+$/, ''), sid]);
    await page.waitForURL((url) => url.href.startsWith(`${application.url}/bye`));
    assert.equal(new URL(page.url()).searchParams.get('state'), 'done');
  });
});
