import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGE_COOKIE } from '../../foundation/pages/index.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { consentLifetimeMs } from './lifetimes.js';
import {
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
  tokenRequest,
} from './test-support/provider-fixture.js';

const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'heidi', 'ivan', 'judy'] as const;

describe('OpenID Provider: the consent page', () => {
  let gw: TestGateway;
  let now = Date.now();
  before(async () => {
    // A user for each test: a consent allowed in one is remembered in the next.
    gw = await startProviderGateway({ clock: () => now, usernames: [...users] });
    await registerClient(gw, 'asks', { name: 'Wiki <of the team>', consent: true });
    await registerClient(gw, 'quiet');
  });
  after(() => gw.close());

  const authorizeUrl = (parameters: Record<string, string> = {}) =>
    `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'asks',
      redirect_uri: redirectUri,
      scope: 'openid profile',
      state: 'the-state',
      ...parameters,
    }).toString()}`;

  /** A browser signed in at the gateway, through its entry, without any consent given. */
  async function signedIn(username: (typeof users)[number]): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    const quiet = await followTo(browser, authorizeUrl({ client_id: 'quiet' }));
    assert.ok(quiet.arrived?.searchParams.get('code'), 'signed in at the gateway');
    return browser;
  }

  /** The consent page the authorization request shows, and its form's token. */
  async function consentPage(browser: TestBrowser, parameters: Record<string, string> = {}) {
    const answer = await followTo(browser, authorizeUrl(parameters));
    assert.equal(answer.arrived, undefined, 'a page, not back at the client');
    assert.equal(answer.status, 200);
    const token = /name="consent" value="([^"]+)"/.exec(answer.body)?.[1];
    assert.ok(token !== undefined, 'the form carries a token');
    return { body: answer.body, token };
  }

  const post = (browser: TestBrowser, fields: Record<string, string>) =>
    browser.exchange('POST', `${gw.url}/_sso/oidc/consent`, fields);

  /** Where a form's answer sends the browser: the client's redirect URI with its query. */
  async function answered(response: Response): Promise<URL> {
    await response.arrayBuffer();
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location') ?? '');
    assert.ok(location.href.startsWith(redirectUri), location.href);
    assert.equal(location.searchParams.get('state'), 'the-state');
    assert.equal(location.searchParams.get('iss'), gw.url);
    return location;
  }

  async function refusedPage(response: Response): Promise<void> {
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
    assert.match(await response.text(), /oidc_consent_invalid/);
  }

  const exchange = (code: string) =>
    tokenRequest(gw.url, 'asks', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    });

  test('the page names the application and what it receives; Allow issues a code', async () => {
    const browser = await signedIn('alice');
    const { body, token } = await consentPage(browser);
    assert.match(body, /Wiki &lt;of the team&gt;/, 'the name, escaped');
    for (const shown of ['Alice Example', 'alice@example.test', 'name="decision" value="allow"']) {
      assert.ok(body.includes(shown), shown);
    }
    assert.ok(body.includes('name="decision" value="deny"'));
    const back = await answered(await post(browser, { consent: token, decision: 'allow' }));
    const code = back.searchParams.get('code');
    assert.ok(code !== null);
    assert.equal((await exchange(code)).status, 200);
    const log = gw.logLines.join('\n');
    assert.ok(!log.includes(token) && !log.includes(code), 'no form token or code in the log');
  });

  test("the page's CSP lets its form's redirect reach the client", async () => {
    const browser = await signedIn('carol');
    const response = await browser.exchange('GET', authorizeUrl());
    await response.arrayBuffer();
    assert.equal(response.status, 200);
    assert.match(
      response.headers.get('content-security-policy') ?? '',
      /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/,
    );
  });

  test('an allowed consent is remembered while its grant lives; prompt=consent asks again', async () => {
    const browser = await signedIn('bob');
    const { token } = await consentPage(browser);
    const code = (
      await answered(await post(browser, { consent: token, decision: 'allow' }))
    ).searchParams.get('code');
    assert.equal((await exchange(code ?? '')).status, 200);
    // The same scopes, in any order: no page.
    const again = await followTo(browser, authorizeUrl({ scope: 'profile openid' }));
    assert.ok(again.arrived?.searchParams.get('code'), 'a code straight back');
    // Other scopes, or prompt=consent: the page again.
    await consentPage(browser, { scope: 'openid profile email' });
    await consentPage(browser, { prompt: 'consent' });
    // prompt=consent asks for a client without consent too.
    const quiet = await followTo(browser, authorizeUrl({ client_id: 'quiet', prompt: 'consent' }));
    assert.equal(quiet.status, 200);
    assert.match(quiet.body, /name="consent"/);
  });

  test('Deny answers the client access_denied, and no code', async () => {
    const browser = await signedIn('dave');
    const { token } = await consentPage(browser);
    const back = await answered(await post(browser, { consent: token, decision: 'deny' }));
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('code'), null);
  });

  test('a form posted twice: the second is refused, and no code', async () => {
    const browser = await signedIn('erin');
    const { token } = await consentPage(browser);
    await answered(await post(browser, { consent: token, decision: 'allow' }));
    await refusedPage(await post(browser, { consent: token, decision: 'allow' }));
    await refusedPage(await post(browser, { consent: token, decision: 'deny' }));
  });

  test("another browser's form is refused, signed in or not, and the form is spent", async () => {
    const browser = await signedIn('frank');
    const { token } = await consentPage(browser);
    // The same user signed in in another browser: another session.
    await refusedPage(await post(await signedIn('frank'), { consent: token, decision: 'allow' }));
    await refusedPage(await post(browser, { consent: token, decision: 'allow' }));
    const second = await consentPage(browser);
    await refusedPage(await post(gw.browser(), { consent: second.token, decision: 'allow' }));
  });

  test('an expired form, a made-up token, a post from another site are refused', async () => {
    const browser = await signedIn('heidi');
    const { token } = await consentPage(browser);
    now += consentLifetimeMs;
    await refusedPage(await post(browser, { consent: token, decision: 'allow' }));
    const madeUp = Buffer.alloc(32, 7).toString('base64url');
    await refusedPage(await post(browser, { consent: madeUp, decision: 'allow' }));
    await refusedPage(await post(browser, { decision: 'allow' }));
    const fresh = await consentPage(browser);
    const cookie = [...browser.cookies(gw.url)].map(([name, value]) => `${name}=${value}`);
    const crossSite = await fetch(`${gw.url}/_sso/oidc/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: cookie.join('; '),
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ consent: fresh.token, decision: 'allow' }).toString(),
    });
    await refusedPage(crossSite);
  });

  test('prompt=none when consent is needed: consent_required, back to the client', async () => {
    const browser = await signedIn('ivan');
    const { arrived } = await followTo(
      browser,
      authorizeUrl({ prompt: 'none', scope: 'openid groups' }),
    );
    assert.equal(arrived?.searchParams.get('error'), 'consent_required');
    assert.equal(arrived.searchParams.get('state'), 'the-state');
  });

  test('the page speaks the language of the browser', async () => {
    const browser = await signedIn('judy');
    browser.setCookie(gw.url, LANGUAGE_COOKIE, 'zh-CN');
    const { body } = await consentPage(browser);
    assert.match(body, /<html lang="zh-CN"/);
    assert.ok(body.includes('允许'));
  });
});
