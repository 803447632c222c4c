import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { createEntryByApi } from '../../test-support/admin-api.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';
import { idpSettingsOf } from './test-support/saml-entries.js';
import type { RunningSimpleSamlPhp } from './test-support/simplesamlphp.js';
import { simpleSamlPhpSkip, startSimpleSamlPhp } from './test-support/simplesamlphp.js';

/**
 * A SAML sign-in in Chromium: the gateway at sso.corp.test, SimpleSAMLphp at
 * idp.test, two sites (RFC 6761's `.test`, mapped to loopback by the
 * browser). The identity provider's page posts the Response cross-site, so
 * the browser leaves the SameSite=Lax binding cookie out; the gateway's
 * page posts it again from its own origin, with the cookie, and the user
 * lands signed in with the identity provider's groups.
 */
describe('a SAML sign-in in Chromium', { skip: chromiumSkip || simpleSamlPhpSkip }, () => {
  const step = storySteps();
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let gatewayPort = 0;
  const at = (path: string) => `http://sso.corp.test:${gatewayPort}${path}`;

  before(async () => {
    gw = await startTestGateway({
      envOfPort: (port) => {
        gatewayPort = port;
        return { SSOGATE_PUBLIC_URL: `http://sso.corp.test:${port}` };
      },
    });
    idp = await startSimpleSamlPhp(
      [
        {
          username: 'alice',
          name: 'Alice Example',
          email: 'alice@example.test',
          groups: ['admins'],
        },
      ],
      [{ entityId: at('/_sso/saml/corp/metadata'), acsUrl: at('/_sso/callback/corp') }],
      { host: 'idp.test' },
    );
    const token = await storedApiToken(gw, 'saml-browser');
    await createEntryByApi(gw.url, token, {
      type: 'saml',
      id: 'corp',
      name: 'Corp sign-on',
      enabled: true,
      saml: {
        ...idpSettingsOf(idp),
        attributes: { name: 'displayName', email: 'mail', groups: 'groups' },
      },
      groupMapping: { adminGroups: ['admins'] },
    });
    browser = await launchChromium(['--host-resolver-rules=MAP *.test 127.0.0.1']);
    context = await browser.newContext();
    page = await context.newPage();
  });

  after(async () => {
    await browser.close();
    await gw.close();
    await idp.stop();
  });

  step('the login form filled, the Response posted twice, the user signed in', async () => {
    const posts: Request[] = [];
    const record = (request: Request) => {
      if (request.method() === 'POST' && request.url().includes('/_sso/callback/corp')) {
        posts.push(request);
      }
    };
    page.on('request', record);
    await page.goto(at('/_sso/login/corp?return_to=/welcome'));
    assert.ok(page.url().startsWith(`${idp.url}/`), page.url());
    await page.locator('#username').fill('alice');
    await page.locator('#password').fill('alice-password');
    await Promise.all([page.waitForURL(at('/welcome')), page.locator('#submit_button').click()]);
    page.off('request', record);
    assert.equal(posts.length, 2, 'the identity provider post, then the relayed one');
    const [crossSite, sameSite] = await Promise.all(posts.map((post) => post.allHeaders()));
    assert.doesNotMatch(crossSite?.cookie ?? '', /ssogate_binding/, 'the Lax cookie stayed out');
    assert.match(sameSite?.cookie ?? '', /ssogate_binding=/, 'the relayed post carries it');
    assert.match(posts[1]?.postData() ?? '', /SAMLResponse=/);
    const me = await page.goto(at('/_sso/me'));
    assert.deepEqual(((await me?.json()) as { userId: string; isAdmin: boolean }).isAdmin, true);
  });
});
