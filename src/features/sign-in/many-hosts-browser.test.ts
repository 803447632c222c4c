import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
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
import { clickSignOut, heldSessionCookies, meWithCookies } from '../../test-support/sign-out.js';
import { registerClient } from '../openid-provider/test-support/provider-fixture.js';

/**
 * One sign-in across three hosts in Chromium: the auth host sso.localhost,
 * wiki.localhost and git.localhost proxied by the gateway, grafana.localhost
 * behind nginx (test-support/nginx.ts forwardAuthConf). The provider is asked once; every host lands on the page
 * asked for; the console and the OpenID Provider's authorization answer on
 * the auth host only; signing out on one host refuses the others.
 */
describe('one sign-in across three hosts, in Chromium', { skip: chromiumSkip || nginxSkip }, () => {
  const step = storySteps();
  let wiki: EchoUpstream;
  let git: EchoUpstream;
  let grafana: EchoUpstream;
  let gw: TestGateway;
  let nginx: RunningNginx;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let gatewayPort = 0;
  let nginxPort = 0;
  const at = (host: string, path: string) =>
    `http://${host}.localhost:${host === 'grafana' ? nginxPort : gatewayPort}${path}`;
  const calls = (endpoint: string) =>
    gw.example.requests.filter(({ path }) => path.endsWith(endpoint)).length;
  /** The provider's authorization requests after the first sign-in (its login form asks twice). */
  let authorizedOnce = 0;
  const authorizations = () => calls('/authorize');
  const echoed = () => echoedRequest(page);

  before(async () => {
    wiki = await startEchoUpstream();
    git = await startEchoUpstream();
    grafana = await startEchoUpstream();
    nginxPort = await freePort();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      envOfPort: (port) => {
        gatewayPort = port;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${port}`,
          SSOGATE_UPSTREAM: `wiki.localhost:${port}=${wiki.url},git.localhost:${port}=${git.url}`,
          SSOGATE_FORWARD_AUTH_HOSTS: `grafana.localhost:${nginxPort}`,
        };
      },
    });
    nginx = await startNginx(
      (dir) => forwardAuthConf(dir, nginxPort, gw.url, grafana.url),
      `http://127.0.0.1:${nginxPort}/_sso/healthz`,
    );
    browser = await launchChromium(['--host-resolver-rules=MAP *.localhost 127.0.0.1']);
    context = await browser.newContext();
    page = await context.newPage();
  });

  after(async () => {
    await browser.close();
    await nginx.stop();
    await gw.close();
    for (const app of [wiki, git, grafana]) await app.close();
  });

  step('the wiki: one sign-in at the provider, landing on the page asked for', async () => {
    await page.goto(at('wiki', '/page?x=1'));
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await Promise.all([
      page.waitForURL(at('wiki', '/page?x=1')),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    assert.equal((await echoed()).url, '/page?x=1');
    assert.equal(calls('/token'), 1, 'one sign-in');
    authorizedOnce = authorizations();
  });

  step('git: no page of the provider or the gateway, landing on the page asked for', async () => {
    const urls = await framesVisited(page, () => page.goto(at('git', '/repo/tree?ref=main')));
    assert.equal(page.url(), at('git', '/repo/tree?ref=main'));
    assert.deepEqual(urls, [at('git', '/repo/tree?ref=main')], 'nothing shown on the way');
    assert.equal((await echoed()).headers?.['x-auth-request-user'], 'alice');
    assert.equal(authorizations(), authorizedOnce);
  });

  step('grafana behind nginx auth_request: the same', async () => {
    const urls = await framesVisited(page, () => page.goto(at('grafana', '/d/home?from=now')));
    assert.equal(page.url(), at('grafana', '/d/home?from=now'));
    assert.deepEqual(urls, [at('grafana', '/d/home?from=now')]);
    const seen = await echoed();
    assert.equal(seen.url, '/d/home?from=now');
    assert.equal(seen.headers?.['x-auth-request-user'], 'alice');
    assert.equal(
      authorizations(),
      authorizedOnce,
      'the provider was asked once for all three hosts',
    );
    assert.equal(calls('/token'), 1);
  });

  step(
    "an application host's authorization request lands on the auth host, which answers it",
    async () => {
      const callback = at('wiki', '/cb');
      await registerClient(gw, 'app', { redirectUris: [callback] });
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'app',
        redirect_uri: callback,
        scope: 'openid',
        state: 'the-state',
      }).toString();
      for (const host of ['git', 'grafana']) {
        const urls = await navigationsRequested(page, () =>
          page.goto(at(host, `/_sso/oidc/authorize?${query}`)),
        );
        assert.deepEqual(urls.slice(0, 2), [
          at(host, `/_sso/oidc/authorize?${query}`),
          at('sso', `/_sso/oidc/authorize?${query}`),
        ]);
        const arrived = new URL(page.url());
        assert.equal(`${arrived.origin}${arrived.pathname}`, callback, host);
        assert.ok(arrived.searchParams.get('code'), `${host}: a code from the auth host`);
        assert.equal(arrived.searchParams.get('iss'), at('sso', ''));
      }
    },
  );

  step('the console answers on the auth host only: a page load elsewhere lands there', async () => {
    for (const host of ['wiki', 'git', 'grafana']) {
      for (const path of ['/_sso/admin', '/_sso/api/entries']) {
        const answer = await page.goto(at(host, path));
        assert.equal(page.url(), at('sso', path), `${host}${path}`);
        // Alice is no administrator, on the auth host as anywhere.
        assert.equal(answer?.status(), 403, `${host}${path}`);
      }
    }
    const own = await page.goto(at('sso', '/_sso/api/openapi.json'));
    assert.equal(own?.status(), 200);
  });

  step('signing out on git refuses the wiki and grafana at their next request', async () => {
    const heading = await clickSignOut(page, at('git', '/_sso/logout'), 'Sign out here');
    assert.equal(heading, 'You are signed out here.');
    // Each host's next page load finds no session there: it is sent to the
    // auth host for a handoff, which a live session never is.
    for (const host of ['wiki', 'grafana', 'git']) {
      const requested = await navigationsRequested(page, () => page.goto(at(host, '/again')));
      assert.equal(page.url(), at(host, '/again'));
      assert.equal(requested[0], at(host, '/again'));
      assert.ok(requested[1]?.startsWith(at('sso', '/_sso/handoff?')), `${host}: ${requested[1]}`);
    }
    // The first of them signed in again at the provider (silently: its own
    // session is still there), since the auth host's session had ended too.
    assert.equal(authorizations(), authorizedOnce + 1);
    assert.equal(calls('/token'), 2);
  });

  step(
    "signing out everywhere on grafana, behind nginx, ends every host's session and the provider's",
    async () => {
      const held = await heldSessionCookies(
        context,
        ['wiki', 'git', 'grafana', 'sso'].map((host) => at(host, '/')),
      );
      const answers = (status: number) => held.map(({ url }) => `${new URL(url).origin} ${status}`);
      assert.deepEqual(await meWithCookies(held), answers(200));
      // The entry's server sends the browser back to the auth host's page.
      const heading = await clickSignOut(
        page,
        at('grafana', '/_sso/logout'),
        'Sign out everywhere',
      );
      assert.equal(heading, 'You are signed out.');
      assert.equal(page.url(), at('sso', '/_sso/signed-out'));
      assert.deepEqual(await meWithCookies(held), answers(401));
      // The server's own session ended too: the next page load asks for the password.
      await page.goto(at('wiki', '/later'));
      await page.getByLabel('Password').waitFor({ timeout: 10_000 });
    },
  );
});
