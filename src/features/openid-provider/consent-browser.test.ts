import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { registerClient, startProviderGateway } from './test-support/provider-fixture.js';

/**
 * The consent page in Chromium, which, unlike a cookie-jar browser, holds
 * the page to its CSP: the form's post redirects to the application, on
 * another origin, and form-action must allow it. The application is an
 * echo server on loopback, so the browser really arrives there.
 */
describe('the consent page, in Chromium', { skip: chromiumSkip }, () => {
  const step = storySteps();
  let application: EchoUpstream;
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let callback = '';
  const authorizeUrl = (state: string) =>
    `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'wiki',
      redirect_uri: callback,
      scope: 'openid profile email',
      state,
    }).toString()}`;
  const callbacks = () => application.seen.filter((seen) => seen.url.startsWith('/callback'));
  /** What the application was sent: the query of its last callback, as it received it. */
  const arrivedWith = () => {
    const last = callbacks().at(-1);
    assert.ok(last !== undefined, 'the application was reached');
    return new URL(last.url, callback).searchParams;
  };

  before(async () => {
    application = await startEchoUpstream();
    callback = `${application.url}/callback`;
    gw = await startProviderGateway();
    await registerClient(gw, 'wiki', {
      name: 'Team wiki',
      consent: true,
      redirectUris: [callback],
    });
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
  });

  after(async () => {
    await browser.close();
    await gw.close();
    await application.close();
  });

  step('signed in at the entry, the browser is shown the consent page', async () => {
    await page.goto(authorizeUrl('first'));
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('heading', { name: 'Allow this application to know who you are?' })
      .waitFor();
    assert.equal(await page.locator('strong.application').innerText(), 'Team wiki');
    assert.ok(page.url().startsWith(`${gw.url}/_sso/oidc/authorize?`));
    assert.equal(callbacks().length, 0, 'nothing sent to the application yet');
  });

  step('Deny: the browser arrives at the application with access_denied', async () => {
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(callback)),
      page.getByRole('button', { name: 'Deny' }).click(),
    ]);
    const query = arrivedWith();
    assert.deepEqual(
      [query.get('error'), query.get('state'), query.get('code')],
      ['access_denied', 'first', null],
    );
  });

  step('Allow: the browser arrives at the application with a code', async () => {
    await page.goto(authorizeUrl('second'));
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(callback)),
      page.getByRole('button', { name: 'Allow' }).click(),
    ]);
    const query = arrivedWith();
    assert.equal(query.get('state'), 'second');
    assert.match(query.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
  });
});
