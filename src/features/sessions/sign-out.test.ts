import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { signOutForm } from '../../test-support/sign-out.js';

/**
 * Signing out takes a form token (a CSRF defence): a link or an image on
 * any page must not be able to sign a user out. GET /_sso/logout only asks;
 * the form it shows posts with the token; the provider's logout still follows.
 */
describe('sign-out needs the form token', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }] });
  });
  after(async () => gw.close());

  async function signedIn(): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const landed = await browser.open(`${gw.url}/`);
    assert.equal(landed.status, 200, landed.body);
    return browser;
  }

  const me = async (browser: TestBrowser) =>
    (await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' })).status;

  const logoutCalls = () => gw.example.requests.filter(({ path }) => path === '/logout').length;

  const post = (browser: TestBrowser, body: string, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}/_sso/logout`, {
      method: 'POST',
      headers: {
        cookie: [...browser.cookies(gw.url)].map(([name, value]) => `${name}=${value}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        ...headers,
      },
      body,
      redirect: 'manual',
    });

  test('GET only shows a confirm page with a POST form; the session goes on', async () => {
    const browser = await signedIn();
    const before = logoutCalls();
    const page = await browser.open(`${gw.url}/_sso/logout`);
    assert.equal(page.status, 200);
    assert.equal(page.hops.length, 1, 'no redirect');
    assert.doesNotMatch(page.body, /<script/i);
    const form = signOutForm(page.body);
    assert.equal(form.action, '/_sso/logout');
    assert.match(form.csrf, /^[\w-]{43}$/);
    assert.match(page.body, /name="scope" value="here">Sign out here</);
    assert.match(page.body, /name="scope" value="everywhere">Sign out everywhere</);
    assert.deepEqual(page.headers.getSetCookie(), []);
    assert.equal(page.headers.get('clear-site-data'), null);
    // The form may end at the entry's logout URL (CSP form-action).
    assert.match(
      page.headers.get('content-security-policy') ?? '',
      new RegExp(`form-action 'self' ${gw.example.url}`),
    );
    assert.equal(await me(browser), 200);
    assert.equal(logoutCalls(), before, 'the server is not told either');
  });

  test('a next or return_to sent to the sign-out is ignored: it ends only where the gateway says', async () => {
    const browser = await signedIn();
    const form = signOutForm((await browser.open(`${gw.url}/_sso/logout`)).body);
    const evil = encodeURIComponent('https://evil.example/');
    const response = await fetch(`${gw.url}/_sso/logout?next=${evil}&return_to=${evil}`, {
      method: 'POST',
      headers: {
        cookie: [...browser.cookies(gw.url)].map(([name, value]) => `${name}=${value}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
      },
      body: `csrf=${form.csrf}&next=${evil}&return_to=${evil}&redirect=${evil}`,
      redirect: 'manual',
    });
    // 303 after a POST, never 307 or 308, which would send the form on.
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location') ?? '', gw.url);
    assert.ok(
      [new URL(gw.url).origin, new URL(gw.example.url).origin].includes(location.origin),
      location.href,
    );
    assert.doesNotMatch(location.href, /evil/);
    assert.equal(await me(browser), 401);
  });

  test("the confirm page's form ends the session and still tells the server", async () => {
    const browser = await signedIn();
    const cookies = new Map(browser.cookies(gw.url));
    const form = signOutForm((await browser.open(`${gw.url}/_sso/logout`)).body);
    const before = logoutCalls();
    const signedOut = await browser.submit(`${gw.url}${form.action}`, { csrf: form.csrf });
    assert.equal(signedOut.status, 200);
    assert.equal(signedOut.url, `${gw.url}/_sso/signed-out`);
    assert.equal(signedOut.hops[0]?.status, 303);
    assert.equal(logoutCalls(), before + 1);
    const replay = gw.browser();
    for (const [name, value] of cookies) replay.setCookie(gw.url, name, value);
    assert.equal(await me(replay), 401);
  });

  test('"Sign out here" ends the gateway session only; the next visit signs in silently', async () => {
    const browser = await signedIn();
    const form = signOutForm((await browser.open(`${gw.url}/_sso/logout`)).body);
    const before = logoutCalls();
    const signedOut = await browser.submit(`${gw.url}${form.action}`, {
      csrf: form.csrf,
      scope: 'here',
    });
    assert.equal(signedOut.url, `${gw.url}/_sso/signed-out?scope=here`);
    assert.equal(signedOut.hops[0]?.status, 303);
    assert.match(signedOut.body, /You are signed out here\./);
    assert.equal(logoutCalls(), before, 'the server is not told');
    assert.equal(await me(browser), 401);
    // The server's session goes on: the next visit needs no page at all.
    const again = await browser.open(`${gw.url}/after`);
    assert.equal(again.status, 200);
    assert.equal(again.url, `${gw.url}/after`);
    assert.equal(await me(browser), 200);
    const events = await gw.storage.audit.list({ kind: 'sign_out', limit: 5 });
    assert.deepEqual(events[0]?.detail, { scope: 'here' });
  });

  test('"Sign out everywhere" also follows the entry\'s logout URL', async () => {
    const browser = await signedIn();
    const form = signOutForm((await browser.open(`${gw.url}/_sso/logout`)).body);
    const before = logoutCalls();
    const signedOut = await browser.submit(`${gw.url}${form.action}`, {
      csrf: form.csrf,
      scope: 'everywhere',
    });
    assert.equal(signedOut.url, `${gw.url}/_sso/signed-out`);
    assert.equal(logoutCalls(), before + 1);
    assert.match(signedOut.body, /You are signed out\./);
  });

  test('a POST without the right token is csrf_failed (403) and ends nothing', async () => {
    const browser = await signedIn();
    for (const body of ['', 'csrf=', `csrf=${'A'.repeat(43)}`]) {
      const refused = await post(browser, body);
      assert.equal(refused.status, 403, body);
      assert.match(await refused.text(), /csrf_failed/);
      assert.deepEqual(refused.headers.getSetCookie(), []);
      assert.equal(await me(browser), 200, body);
    }
  });

  test('a cross-site POST is refused, even with the token', async () => {
    const browser = await signedIn();
    const { csrf } = signOutForm((await browser.open(`${gw.url}/_sso/logout`)).body);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://other.127.0.0.1.example' },
    ]) {
      const refused = await post(browser, `csrf=${csrf}`, headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.match(await refused.text(), /csrf_failed/);
      assert.equal(await me(browser), 200);
    }
    // The gateway's own page posts same-origin, and its Origin is "null"
    // under Referrer-Policy: no-referrer.
    const accepted = await post(browser, `csrf=${csrf}`, {
      'sec-fetch-site': 'same-origin',
      origin: 'null',
    });
    assert.equal(accepted.status, 303);
    assert.equal(await me(browser), 401);
  });

  test('without a session, GET goes to the signed-out page', async () => {
    const page = await gw.browser().open(`${gw.url}/_sso/logout`);
    assert.equal(page.url, `${gw.url}/_sso/signed-out`);
    assert.equal(page.status, 200);
  });
});
