import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { echoedRequest } from '../../test-support/page-navigations.js';
import { storySteps } from '../../test-support/story-steps.js';
import type { RunningSlapd } from './test-support/slapd.js';
import {
  directoryUsers,
  groupSearch,
  serviceDn,
  servicePassword,
  slapdSkip,
  startSlapd,
  suffix,
} from './test-support/slapd.js';

const [alice] = directoryUsers as [(typeof directoryUsers)[number]];

/**
 * A sign-in through an LDAP entry in Chromium, from an application host:
 * wiki.localhost, proxied by the gateway, sends the browser to the password
 * form on the auth host sso.localhost; a wrong password shows the form
 * again; the right one ends on the page of the wiki first asked for, with
 * the user's name passed to it (the form's CSP form-action lets its post's
 * redirects reach the wiki: ldap-password-form.ts).
 */
describe(
  'an LDAP sign-in from an application host, in Chromium',
  {
    skip: chromiumSkip || slapdSkip,
  },
  () => {
    const step = storySteps();
    let slapd: RunningSlapd;
    let wiki: EchoUpstream;
    let gw: TestGateway;
    let browser: Browser;
    let page: Page;
    let gatewayPort = 0;
    const at = (host: string, path: string) => `http://${host}.localhost:${gatewayPort}${path}`;

    before(async () => {
      slapd = await startSlapd();
      wiki = await startEchoUpstream();
      gw = await startTestGateway({
        entries: () => [
          {
            type: 'ldap',
            id: 'corp',
            name: 'Corporate directory',
            enabled: true,
            isDefault: true,
            appsecret: servicePassword,
            ldap: {
              url: slapd.url,
              bindDn: serviceDn,
              baseDn: `ou=people,${suffix}`,
              userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))',
              ...groupSearch,
              nestedGroups: true,
            },
            groupMapping: { expression: "JSON_GET($response, 'groups')" },
          },
        ],
        envOfPort: (port) => {
          gatewayPort = port;
          return {
            SSOGATE_PUBLIC_URL: `http://sso.localhost:${port}`,
            SSOGATE_UPSTREAM: `wiki.localhost:${port}=${wiki.url}`,
          };
        },
      });
      browser = await launchChromium(['--host-resolver-rules=MAP *.localhost 127.0.0.1']);
      page = await (await browser.newContext()).newPage();
    });

    after(async () => {
      await browser.close();
      await gw.close();
      await wiki.close();
      await slapd.stop();
    });

    step("the wiki sends the browser to the directory's form on the auth host", async () => {
      await page.goto(at('wiki', '/page?x=1'));
      const url = new URL(page.url());
      assert.equal(url.host, `sso.localhost:${gatewayPort}`);
      assert.equal(url.pathname, '/_sso/ldap/corp');
      await page.getByRole('heading', { name: 'Corporate directory' }).waitFor();
    });

    step('a wrong password shows the form again, the username kept', async () => {
      await page.getByLabel('Username').fill(alice.uid);
      await page.getByLabel('Password').fill('not the password');
      await Promise.all([
        page.waitForURL(/\/_sso\/ldap\/corp/),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      await page.getByRole('alert').waitFor();
      assert.equal(await page.getByLabel('Username').inputValue(), alice.uid);
      assert.equal(await page.getByLabel('Password').inputValue(), '');
    });

    step('the right password ends on the page of the wiki first asked for, signed in', async () => {
      await page.getByLabel('Password').fill(alice.password);
      await Promise.all([
        page.waitForURL(at('wiki', '/page?x=1')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      const seen = await echoedRequest(page);
      assert.equal(seen.url, '/page?x=1');
      assert.equal(seen.headers?.['x-auth-request-user'], 'alice');
      const stored = await gw.storage.users.findByUserId('alice');
      assert.deepEqual([...(stored?.groups ?? [])].sort(), [
        'engineers',
        'gateway-admins',
        'platform',
        'staff',
      ]);
    });
  },
);
