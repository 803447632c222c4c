import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';

/**
 * A passkey in Chromium, held by a virtual authenticator of the DevTools
 * protocol's WebAuthn domain (CTAP2, internal, resident keys, user
 * verified): enrolled on first need for a `factor: 2` rule, asked for at the
 * next sign-in and again for a step-up, then removed. The gateway is at
 * sso.localhost, a secure context for Chromium over plain http (as
 * WebAuthn needs), resolved to loopback by the browser itself.
 */
describe('a passkey as second factor, in Chromium', { skip: chromiumSkip }, () => {
  const step = storySteps();
  let gw: TestGateway;
  let upstream: EchoUpstream;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let gatewayPort = 0;
  let now = Date.now();
  const at = (path: string) => `http://sso.localhost:${String(gatewayPort)}${path}`;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      usernames: ['alice'],
      clock: () => now,
      envOfPort: (port) => {
        gatewayPort = port;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${String(port)}`,
          SSOGATE_UPSTREAM: upstream.url,
          SSOGATE_ACCESS_RULES: JSON.stringify([
            { path: '/pay', users: ['alice'], factor: 2, within: '15m' },
            { path: '/ops', users: ['alice'], factor: 2 },
          ]),
        };
      },
    });
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  });

  after(async () => {
    await browser.close();
    await gw.close();
    await upstream.close();
  });

  async function signIn(path: string): Promise<void> {
    await page.goto(at(path));
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/_sso/factor'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
  }

  step('a first need enrols a passkey, and the rule lets the user through', async () => {
    await signIn('/ops/x');
    await page.getByRole('link', { name: 'Add a passkey or security key' }).click();
    await page.waitForURL((url) => url.pathname === '/_sso/factor/passkey/enrol');
    await page.getByLabel('Name of this passkey').fill('Laptop');
    await Promise.all([
      page.waitForSelector('#recovery-codes'),
      page.getByRole('button', { name: 'Make passkey' }).click(),
    ]);
    await Promise.all([
      page.waitForURL(at('/ops/x')),
      page.getByRole('link', { name: 'Continue' }).click(),
    ]);
    assert.match(await page.content(), /\/ops\/x/);
  });

  step('signed in again, the factor page asks for the passkey', async () => {
    await context.clearCookies();
    await signIn('/ops/y');
    await Promise.all([
      page.waitForURL(at('/ops/y')),
      page.getByRole('button', { name: 'Use passkey' }).click(),
    ]);
  });

  step('the same answer posted again is refused: its challenge was used', async () => {
    await context.clearCookies();
    await signIn('/ops/z');
    let posted = '';
    const record = (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/_sso/factor/passkey'))
        posted = request.postData() ?? '';
    };
    page.on('request', record);
    await Promise.all([
      page.waitForURL(at('/ops/z')),
      page.getByRole('button', { name: 'Use passkey' }).click(),
    ]);
    page.off('request', record);
    assert.match(posted, /response=/);
    // Posted from the application's page (the echo upstream sets no policy), with its cookies.
    const again = await page.evaluate(async (body) => {
      const answer = await fetch('/_sso/factor/passkey', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
      return { status: answer.status, text: await answer.text() };
    }, posted);
    assert.equal(again.status, 400);
    assert.match(again.text, /webauthn_challenge/);
  });

  step('after `within`, a step-up asks for it again', async () => {
    await page.goto(at('/pay/a'));
    assert.equal(new URL(page.url()).pathname, '/pay/a', 'the factor is recent');
    now += 16 * 60_000;
    await page.goto(at('/pay/b'));
    assert.equal(new URL(page.url()).pathname, '/_sso/factor');
    await Promise.all([
      page.waitForURL(at('/pay/b')),
      page.getByRole('button', { name: 'Use passkey' }).click(),
    ]);
  });

  step('the passkey is listed, and removed', async () => {
    await page.goto(at('/_sso/factors'));
    const list = page.locator('#factors');
    assert.match(await list.innerText(), /Laptop/);
    await Promise.all([
      page.waitForURL(at('/_sso/factors')),
      page.getByRole('button', { name: 'Remove' }).click(),
    ]);
    assert.doesNotMatch(await page.locator('#factors').innerText(), /Laptop/);
    assert.match(await page.content(), /You have no second factor\./);
  });
});
