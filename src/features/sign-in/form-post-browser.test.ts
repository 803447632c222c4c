import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { TestBrowser } from '../../test-support/browser.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';

/**
 * A sign-in whose server answers by form_post, in Chromium: the gateway at
 * sso.corp.test and the server at idp.test, two sites (names of RFC 6761's
 * `.test`, mapped to loopback by the browser), so the server's POST to the
 * callback is cross-site and the browser leaves the SameSite=Lax binding
 * cookie out. The gateway's page posts the fields again from its own
 * origin, with the cookie, and the user lands signed in.
 */
describe('a sign-in answered by form_post, in Chromium', { skip: chromiumSkip }, () => {
  const step = storySteps();
  let gw: TestGateway;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let gatewayPort = 0;
  /** The relayed post's body, as Chromium sent it. */
  let relayedBody = '';
  const at = (path: string) => `http://sso.corp.test:${gatewayPort}${path}`;

  before(async () => {
    gw = await startTestGateway({
      entries: ({ standard }) => [
        {
          ...standard,
          id: 'posted',
          name: 'Posted',
          responseMode: 'form_post',
          // The browser goes to the server by a name of another site.
          authorizeUrl: String(standard.authorizeUrl).replace('//127.0.0.1:', '//idp.test:'),
        },
      ],
      envOfPort: (port) => {
        gatewayPort = port;
        return { SSOGATE_PUBLIC_URL: `http://sso.corp.test:${port}` };
      },
    });
    browser = await launchChromium(['--host-resolver-rules=MAP *.test 127.0.0.1']);
    context = await browser.newContext();
    page = await context.newPage();
  });

  after(async () => {
    await browser.close();
    await gw.close();
  });

  step(
    'the server posts cross-site, the gateway posts again same-site, the user lands signed in',
    async () => {
      const posts: Request[] = [];
      const record = (request: Request) => {
        if (request.method() === 'POST' && request.url().includes('/_sso/callback/posted')) {
          posts.push(request);
        }
      };
      page.on('request', record);
      await page.goto(at('/_sso/login/posted?return_to=/welcome'));
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill('alice-password');
      await Promise.all([
        page.waitForURL(at('/welcome')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      page.off('request', record);
      assert.equal(posts.length, 2, 'the server post, then the relayed one');
      const [crossSite, sameSite] = await Promise.all(posts.map((post) => post.allHeaders()));
      assert.doesNotMatch(crossSite?.cookie ?? '', /ssogate_binding/, 'the Lax cookie stayed out');
      assert.match(sameSite?.cookie ?? '', /ssogate_binding=/, 'the relayed post carries it');
      relayedBody = posts[1]?.postData() ?? '';
      assert.match(relayedBody, /ssogate_relayed=1/);
      const binding = (await context.cookies(at('/'))).find(
        ({ name }) => name === 'ssogate_binding',
      );
      assert.equal(binding?.sameSite, 'Lax');
      const me = await page.goto(at('/_sso/me'));
      assert.equal(((await me?.json()) as { userId: string }).userId, 'alice');
    },
  );

  step(
    'the same posted fields, replayed with the same cookie, are refused: the state was single-use',
    async () => {
      const replay = new TestBrowser();
      const binding = (await context.cookies(at('/'))).find(
        ({ name }) => name === 'ssogate_binding',
      );
      replay.setCookie(gw.url, 'ssogate_binding', binding?.value ?? '');
      const answer = await replay.exchange('POST', `${gw.url}/_sso/callback/posted`, relayedBody);
      assert.equal(answer.status, 400);
      assert.match(await answer.text(), /state_invalid/);
    },
  );
});
