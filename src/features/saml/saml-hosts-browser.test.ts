import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import {
  echoedRequest,
  framesVisited,
  navigationsRequested,
} from '../../test-support/page-navigations.js';
import { clickSignOut } from '../../test-support/sign-out.js';
import { storySteps } from '../../test-support/story-steps.js';
import type { RunningSimpleSamlPhp } from './test-support/simplesamlphp.js';
import { simpleSamlPhpSkip, startSimpleSamlPhp } from './test-support/simplesamlphp.js';

/**
 * A SAML sign-in from an application host, in Chromium: wiki.corp.test,
 * proxied by the gateway (auth host sso.corp.test), sends the browser
 * through SimpleSAMLphp's login page at idp.test and gets it back on the
 * page first asked for, with the identity provider's user name; git.other.test,
 * another site proxied by the same gateway, is then reached signed in
 * through the handoff without the identity provider's page. An access rule
 * on the identity provider's group `finance` lets alice in and refuses bob
 * (docs/proxy.md, access rules). Then single logout (SAML Profiles §4.4):
 * bob signs out everywhere from the wiki's page, through the identity
 * provider's SingleLogoutService and back to the signed-out page, after
 * which both the wiki and the identity provider ask for his password
 * again; alice is signed out at the identity provider (IdP-initiated), and
 * the wiki and git ask her to sign in again.
 */
describe(
  'a SAML sign-in from application hosts, in Chromium',
  { skip: chromiumSkip || simpleSamlPhpSkip },
  () => {
    const step = storySteps();
    let gw: TestGateway;
    let idp: RunningSimpleSamlPhp;
    let wiki: EchoUpstream;
    let git: EchoUpstream;
    let browser: Browser;
    let page: Page;
    /** alice's page, kept for the identity provider's own logout. */
    let alicePage: Page;
    let gatewayPort = 0;
    const at = (host: string, path: string) => `http://${host}:${gatewayPort}${path}`;
    /** The identity provider's login pages shown so far (its form, then its posting page). */
    const idpPagesShown = (urls: readonly string[]) =>
      urls.filter((url) => url.startsWith(`${idp.url}/`)).length;

    /** Fills SimpleSAMLphp's login form and waits for the page the gateway ends on. */
    const signInAtIdp = async (username: string, landing: string) => {
      await page.locator('#username').fill(username);
      await page.locator('#password').fill(`${username}-password`);
      await Promise.all([page.waitForURL(landing), page.locator('#submit_button').click()]);
    };

    before(async () => {
      wiki = await startEchoUpstream();
      git = await startEchoUpstream();
      gw = await startTestGateway({
        envOfPort: (port) => {
          gatewayPort = port;
          return {
            SSOGATE_PUBLIC_URL: `http://sso.corp.test:${port}`,
            SSOGATE_UPSTREAM: `wiki.corp.test:${port}=${wiki.url},git.other.test:${port}=${git.url}`,
            SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/ledger', groups: ['finance'] }]),
          };
        },
      });
      idp = await startSimpleSamlPhp(
        [
          {
            username: 'alice',
            name: 'Alice Example',
            email: 'alice@example.test',
            groups: ['finance', 'staff'],
          },
          { username: 'bob', name: 'Bob Example', email: 'bob@example.test', groups: ['staff'] },
        ],
        [
          {
            entityId: at('sso.corp.test', '/_sso/saml/corp/metadata'),
            acsUrl: at('sso.corp.test', '/_sso/callback/corp'),
            logoutUrl: at('sso.corp.test', '/_sso/saml/corp/logout'),
          },
        ],
        { host: 'idp.test' },
      );
      // Its metadata names its SingleLogoutService (at idp.test), which single logout needs.
      const idpMetadata = await (
        await fetch(idp.metadataUrl.replace(new URL(idp.url).hostname, '127.0.0.1'))
      ).text();
      const token = await storedApiToken(gw, 'saml-hosts-browser');
      // Through the auth host: with application hosts, 127.0.0.1 is none of the gateway's hosts.
      const created = await gw.app.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: {
          host: `sso.corp.test:${gatewayPort}`,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        payload: {
          type: 'saml',
          id: 'corp',
          name: 'Corp sign-on',
          enabled: true,
          isDefault: true,
          saml: {
            ssoUrl: idp.ssoUrl,
            idpEntityId: idp.entityId,
            idpCertificate: idp.certificate,
            idpMetadataXml: idpMetadata,
            attributes: { name: 'displayName', email: 'mail', groups: 'groups' },
          },
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      browser = await launchChromium(['--host-resolver-rules=MAP *.test 127.0.0.1']);
    });

    after(async () => {
      await browser.close();
      await gw.close();
      await idp.stop();
      await wiki.close();
      await git.close();
    });

    step("the wiki sends the browser to the identity provider's login page", async () => {
      page = await (await browser.newContext()).newPage();
      await page.goto(at('wiki.corp.test', '/page?x=1'));
      assert.ok(page.url().startsWith(`${idp.url}/`), page.url());
      await page.locator('#username').waitFor();
    });

    step('signed in there, the browser lands on the page of the wiki first asked for', async () => {
      await signInAtIdp('alice', at('wiki.corp.test', '/page?x=1'));
      const seen = await echoedRequest(page);
      assert.equal(seen.url, '/page?x=1');
      assert.equal(seen.headers?.['x-auth-request-user'], 'alice');
      assert.equal(seen.headers['x-auth-request-email'], 'alice@example.test');
      const stored = await gw.storage.users.findByUserId('alice');
      assert.deepEqual([...(stored?.groups ?? [])].sort(), ['finance', 'staff']);
    });

    step(
      'git on another site: signed in through the handoff, no identity provider page',
      async () => {
        const urls = await framesVisited(page, () =>
          page.goto(at('git.other.test', '/repo?ref=main')),
        );
        assert.equal(page.url(), at('git.other.test', '/repo?ref=main'));
        assert.deepEqual(
          urls,
          [at('git.other.test', '/repo?ref=main')],
          'nothing shown on the way',
        );
        assert.equal(idpPagesShown(urls), 0);
        const seen = await echoedRequest(page);
        assert.equal(seen.url, '/repo?ref=main');
        assert.equal(seen.headers?.['x-auth-request-user'], 'alice');
      },
    );

    step("the ledger, open to the identity provider's group finance, lets alice in", async () => {
      const answer = await page.goto(at('git.other.test', '/ledger/2026'));
      assert.equal(answer?.status(), 200);
      assert.equal((await echoedRequest(page)).url, '/ledger/2026');
      alicePage = page;
    });

    step(
      'bob, signed in through the same identity provider but not in finance, is refused',
      async () => {
        page = await (await browser.newContext()).newPage();
        await page.goto(at('wiki.corp.test', '/ledger/2026'));
        assert.ok(page.url().startsWith(`${idp.url}/`), page.url());
        const refused = page.waitForResponse(
          (response) => response.url() === at('wiki.corp.test', '/ledger/2026'),
        );
        await signInAtIdp('bob', at('wiki.corp.test', '/ledger/2026'));
        assert.equal((await refused).status(), 403);
        await page.getByText('access_denied').first().waitFor();
        assert.equal(wiki.seen.filter(({ url }) => url.startsWith('/ledger')).length, 0);
        const fine = await page.goto(at('wiki.corp.test', '/page'));
        assert.equal(fine?.status(), 200);
        assert.equal((await echoedRequest(page)).headers?.['x-auth-request-user'], 'bob');
      },
    );

    step(
      "bob signs out everywhere from the wiki's page: through the identity provider's logout to the signed-out page",
      async () => {
        let heading = '';
        const requested = await navigationsRequested(page, async () => {
          heading = await clickSignOut(
            page,
            at('wiki.corp.test', '/_sso/logout'),
            'Sign out everywhere',
          );
        });
        assert.equal(heading, 'You are signed out.', `${requested.join('\n')}\n${await idp.log()}`);
        assert.equal(page.url(), at('sso.corp.test', '/_sso/signed-out'));
        // The LogoutRequest went to the identity provider, its answer came back.
        assert.ok(
          requested.some((url) => url.startsWith(`${idp.sloUrl}?SAMLRequest=`)),
          requested.join('\n'),
        );
        assert.ok(
          requested.some((url) =>
            url.startsWith(at('sso.corp.test', '/_sso/saml/corp/logout?SAMLResponse=')),
          ),
          requested.join('\n'),
        );
      },
    );

    step(
      "the wiki's page then asks for sign-in, and the identity provider for the password",
      async () => {
        const reached = wiki.seen.length;
        await page.goto(at('wiki.corp.test', '/page'));
        assert.ok(page.url().startsWith(`${idp.url}/`), page.url());
        await page.locator('#password').waitFor();
        assert.equal(wiki.seen.length, reached, 'the wiki was reached without a session');
      },
    );

    step(
      'alice signed out at the identity provider: the wiki and git ask her to sign in again',
      async () => {
        page = alicePage;
        await page.goto(idp.idpLogoutUrl(at('sso.corp.test', '/_sso/signed-out')));
        await page.waitForURL(at('sso.corp.test', '/_sso/signed-out'));
        assert.equal(
          await page.getByRole('heading', { level: 1 }).innerText(),
          'You are signed out.',
        );
        for (const host of ['wiki.corp.test', 'git.other.test']) {
          await page.goto(at(host, '/again'));
          assert.ok(page.url().startsWith(`${idp.url}/`), `${host}: ${page.url()}`);
          await page.locator('#password').waitFor();
        }
      },
    );
  },
);
