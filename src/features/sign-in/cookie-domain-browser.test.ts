import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { TestBrowser } from '../../test-support/browser.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import { freePort } from '../../test-support/free-port.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { RunningNginx } from '../../test-support/nginx.js';
import { forwardAuthConf, nginxSkip, startNginx } from '../../test-support/nginx.js';
import {
  echoedRequest,
  framesVisited,
  navigationsRequested,
} from '../../test-support/page-navigations.js';
import { storySteps } from '../../test-support/story-steps.js';
import { bootstrapAdmin } from '../local-accounts/bootstrap-admin.js';
import { clickSignOut, heldSessionCookies, meWithCookies } from '../../test-support/sign-out.js';

/**
 * SSOGATE_COOKIE_DOMAIN in Chromium (docs/proxy.md#one-cookie-for-a-whole-domain):
 * the auth host sso.corp.test, wiki.corp.test and git.corp.test proxied by
 * the gateway, grafana.corp.test behind nginx, and outside.test, an
 * application outside the domain. The names are RFC 6761's `.test`, mapped to
 * loopback by the browser: `localhost` names would be judged by the
 * browser's rules for localhost, not by the Domain attribute's. One visit to
 * the provider signs every host under the domain in, with no handoff; the
 * cookie never reaches outside.test; a sign-out on one host ends the
 * sign-in on all of them.
 */
describe('one cookie for a whole domain, in Chromium', { skip: chromiumSkip || nginxSkip }, () => {
  const step = storySteps();
  let wiki: EchoUpstream;
  let git: EchoUpstream;
  let grafana: EchoUpstream;
  let outside: EchoUpstream;
  let gw: TestGateway;
  let nginx: RunningNginx;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let gatewayPort = 0;
  let nginxPort = 0;
  const at = (host: string, path: string) =>
    `http://${host}.corp.test:${host === 'grafana' ? nginxPort : gatewayPort}${path}`;
  const calls = (endpoint: string) =>
    gw.example.requests.filter(({ path }) => path.endsWith(endpoint)).length;
  let authorizedOnce = 0;
  const echoed = () => echoedRequest(page);
  const sessionCookie = async () =>
    (await context.cookies(at('sso', '/'))).find(({ name }) => name === 'ssogate_session');

  before(async () => {
    wiki = await startEchoUpstream();
    git = await startEchoUpstream();
    grafana = await startEchoUpstream();
    outside = await startEchoUpstream();
    nginxPort = await freePort();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      envOfPort: (port) => {
        gatewayPort = port;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.corp.test:${port}`,
          SSOGATE_COOKIE_DOMAIN: '.corp.test',
          SSOGATE_UPSTREAM: `wiki.corp.test:${port}=${wiki.url},git.corp.test:${port}=${git.url}`,
          SSOGATE_FORWARD_AUTH_HOSTS: `grafana.corp.test:${nginxPort}`,
        };
      },
    });
    nginx = await startNginx(
      (dir) => forwardAuthConf(dir, nginxPort, gw.url, grafana.url),
      `http://127.0.0.1:${nginxPort}/_sso/healthz`,
    );
    browser = await launchChromium(['--host-resolver-rules=MAP *.test 127.0.0.1']);
    context = await browser.newContext();
    page = await context.newPage();
  });

  after(async () => {
    await browser.close();
    await nginx.stop();
    await gw.close();
    for (const app of [wiki, git, grafana, outside]) await app.close();
  });

  step('the wiki: one sign-in at the provider, the cookie set for the domain', async () => {
    const urls = await navigationsRequested(page, async () => {
      await page.goto(at('wiki', '/page?x=1'));
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill('alice-password');
      await Promise.all([
        page.waitForURL(at('wiki', '/page?x=1')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
    });
    assert.ok(
      urls.every((url) => !url.includes('/_sso/handoff')),
      `no handoff: ${urls.join(' ')}`,
    );
    assert.equal((await echoed()).url, '/page?x=1');
    assert.equal(calls('/token'), 1, 'one sign-in');
    authorizedOnce = calls('/authorize');
    const cookie = await sessionCookie();
    assert.equal(cookie?.domain, '.corp.test');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
  });

  step('git and grafana: the same cookie, no page on the way, the provider not asked', async () => {
    for (const [host, path] of [
      ['git', '/repo/tree?ref=main'],
      ['grafana', '/d/home?from=now'],
    ] as const) {
      const urls = await framesVisited(page, () => page.goto(at(host, path)));
      assert.deepEqual(urls, [at(host, path)], `${host}: nothing shown on the way`);
      const seen = await echoed();
      assert.equal(seen.url, path);
      assert.equal(seen.headers?.['x-auth-request-user'], 'alice', host);
    }
    assert.equal(calls('/authorize'), authorizedOnce);
    assert.equal(calls('/token'), 1);
    // ssogate's own proxy keeps the cookie from the applications it proxies.
    await page.goto(at('wiki', '/cookies'));
    assert.doesNotMatch((await echoed()).headers?.cookie ?? '', /ssogate_session/);
  });

  step('a host outside the domain is never sent the cookie', async () => {
    const elsewhere = `http://outside.test:${new URL(outside.url).port}/app`;
    await page.goto(elsewhere);
    assert.equal((await echoed()).url, '/app');
    // The browser sends outside.test its own cookies, never the domain's.
    assert.doesNotMatch(outside.seen.at(-1)?.headers.cookie ?? '', /ssogate/);
    // Replayed to the gateway under a name outside the domain, it is no session.
    const cookie = (await sessionCookie())?.value ?? '';
    const replay = new TestBrowser({ connectTo: '127.0.0.1' });
    try {
      const me = async (origin: string) => {
        replay.setCookie(origin, 'ssogate_session', cookie);
        const answer = await replay.exchange('GET', `${origin}/_sso/me`, undefined, '*/*');
        await answer.arrayBuffer();
        return answer.status;
      };
      assert.equal(await me(at('sso', '')), 200);
      assert.equal(await me(at('wiki', '')), 200);
      assert.equal(await me(`http://sso.corp.test.evil:${gatewayPort}`), 401);
      assert.equal(await me(`http://outside.test:${gatewayPort}`), 401);
    } finally {
      await replay.close();
    }
  });

  step('the console answers on the auth host only: a page load elsewhere lands there', async () => {
    for (const host of ['wiki', 'grafana']) {
      const answer = await page.goto(at(host, '/_sso/api/entries'));
      assert.equal(page.url(), at('sso', '/_sso/api/entries'), host);
      assert.notEqual(answer?.status(), 200, host);
    }
    assert.equal((await page.goto(at('sso', '/_sso/api/openapi.json')))?.status(), 200);
  });

  step(
    "an administrator's console session stays on the auth host: no application receives it",
    async () => {
      await bootstrapAdmin(gw.storage.users, 'console-admin-password', Date.now());
      const admin = await browser.newContext();
      try {
        const adminPage = await admin.newPage();
        await adminPage.goto(at('sso', '/_sso/login?return_to=/_sso/admin'));
        await adminPage.getByLabel('Username').fill('admin');
        await adminPage.getByLabel('Password').fill('console-admin-password');
        await Promise.all([
          adminPage.waitForURL(at('sso', '/_sso/admin')),
          adminPage.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        assert.equal((await adminPage.goto(at('sso', '/_sso/api/users')))?.status(), 200);
        const cookies = await admin.cookies(at('sso', '/'));
        const named = (name: string) => cookies.find((cookie) => cookie.name === name);
        assert.equal(named('ssogate_console')?.domain, 'sso.corp.test', 'host-only');
        assert.equal(named('ssogate_session')?.domain, '.corp.test');
        // grafana's application sees the browser's Cookie header as nginx passes it on.
        await adminPage.goto(at('grafana', '/d/home'));
        const seen = (await echoedRequest(adminPage)).headers?.cookie ?? '';
        assert.match(seen, /ssogate_session=/, 'the domain cookie, the trade-off');
        assert.doesNotMatch(seen, /ssogate_console/);
        // The domain cookie it saw, replayed at the auth host's admin API, is no administrator.
        const replay = new TestBrowser({ connectTo: '127.0.0.1' });
        try {
          replay.setCookie(at('sso', ''), 'ssogate_session', named('ssogate_session')?.value ?? '');
          const answer = await replay.open(at('sso', '/_sso/api/users'), {
            accept: 'application/json',
          });
          assert.equal(answer.status, 401, answer.body);
          assert.match(answer.body, /unauthenticated/);
        } finally {
          await replay.close();
        }
      } finally {
        await admin.close();
      }
    },
  );

  /** The answers of wiki and grafana to a page load carrying `cookie` alone, not followed. */
  async function replayed(cookie: string): Promise<string[]> {
    const replay = new TestBrowser({ connectTo: '127.0.0.1' });
    try {
      const answers: string[] = [];
      for (const host of ['wiki', 'grafana']) {
        replay.setCookie(at(host, '/'), 'ssogate_session', cookie);
        const answer = await replay.exchange('GET', at(host, '/again'));
        await answer.arrayBuffer();
        answers.push(`${host} ${answer.status} ${answer.headers.get('location') ?? ''}`);
      }
      return answers;
    } finally {
      await replay.close();
    }
  }

  step('signing out on git ends the sign-in on the wiki and grafana, cookie or not', async () => {
    const cookie = (await sessionCookie())?.value ?? '';
    assert.deepEqual(await replayed(cookie), ['wiki 200 ', 'grafana 200 ']);
    const heading = await clickSignOut(page, at('git', '/_sso/logout'), 'Sign out here');
    assert.equal(heading, 'You are signed out here.');
    assert.equal(await sessionCookie(), undefined, 'the domain cookie is cleared');
    // The ended session's cookie, sent again, is no session on any host.
    for (const answer of await replayed(cookie))
      assert.match(answer, new RegExp(`^\\w+ 302 ${at('sso', '/_sso/login/')}`), answer);
    // In the browser, the next page load signs in again at the provider
    // (silently: the provider's own session is still there).
    const urls = await navigationsRequested(page, () => page.goto(at('grafana', '/again')));
    assert.ok(urls[1]?.startsWith(at('sso', '/_sso/login/')), urls.join(' '));
    assert.equal(page.url(), at('grafana', '/again'));
    assert.equal(calls('/token'), 2);
  });

  step(
    "signing out everywhere on the wiki ends the sign-in on every host, and the provider's",
    async () => {
      const held = await heldSessionCookies(
        context,
        ['wiki', 'grafana', 'sso'].map((host) => at(host, '/')),
      );
      const answers = (status: number) => held.map(({ url }) => `${new URL(url).origin} ${status}`);
      assert.deepEqual(await meWithCookies(held), answers(200));
      // The entry's server sends the browser back to the auth host's page.
      const heading = await clickSignOut(page, at('wiki', '/_sso/logout'), 'Sign out everywhere');
      assert.equal(heading, 'You are signed out.');
      assert.equal(page.url(), at('sso', '/_sso/signed-out'));
      // Judged at the gateway: over http Chromium kept the domain's cookie
      // after this answer (it carries Clear-Site-Data), naming no session now.
      assert.deepEqual(await meWithCookies(held), answers(401));
      // The server's own session ended too: the next page load asks for the password.
      await page.goto(at('grafana', '/later'));
      await page.getByLabel('Password').waitFor({ timeout: 10_000 });
    },
  );
});
