import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { signOut } from '../../test-support/sign-out.js';

/**
 * Whole sign-ins over real HTTP: a browser with a cookie jar, the gateway on
 * loopback, and the bundled example OAuth2 server in the three shapes the
 * gateway supports (GET style, POST-JSON envelope, standard form POST).
 */
describe('signing in', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle, jsonStyle, standard }) => [
        { ...getStyle, isDefault: true },
        jsonStyle,
        standard,
      ],
      // One person per entry: a user created by one entry is refused at another.
      usernames: ['alice', 'bob', 'carol', 'dave', 'erin'],
    });
  });
  after(async () => gw.close());

  test('silent sign-in through the default entry: only redirects, then the requested page, query intact', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const page = await browser.open(`${gw.url}/reports/q3?year=2026&tab=a%20b`);
    assert.equal(page.status, 200);
    assert.equal(page.url, `${gw.url}/reports/q3?year=2026&tab=a%20b`);
    assert.match(page.body, /Alice Example/);
    const [first, second, third] = page.hops;
    assert.equal(page.hops.length, 4);
    assert.ok(first?.location?.startsWith(`${gw.example.url}/get/authorize?`));
    assert.ok(second?.location?.startsWith(`${gw.url}/_sso/callback/example-get?`));
    assert.equal(third?.location, '/reports/q3?year=2026&tab=a%20b');
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.deepEqual(JSON.parse(me.body), {
      userId: 'alice',
      userName: 'Alice Example',
      email: 'alice@example.test',
      mobile: null,
      department: 'Testing',
      isAdmin: false,
      entryId: 'example-get',
    });
  });

  test('a sign-in logs one line for its callback, the request line holding the audit event', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'alice');
    const before = gw.logLines.length;
    const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/logged`);
    assert.equal(page.url, `${gw.url}/logged`);
    const written = gw.logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const audited = written.filter((line) => line.audit !== undefined);
    assert.equal(audited.length, 1, JSON.stringify(written));
    const line = audited[0];
    assert.ok(line);
    assert.equal(line.msg, 'request completed');
    assert.match((line.req as { url: string }).url, /^\/_sso\/callback\/example-get\?/);
    assert.deepEqual((line.res as { statusCode: number }).statusCode, 302);
    const audit = line.audit as Record<string, unknown>;
    assert.equal(audit.kind, 'sign_in');
    assert.equal(audit.outcome, 'success');
    assert.equal(audit.userId, 'alice');
    const callbackLines = written.filter((entry) =>
      JSON.stringify(entry).includes('/_sso/callback/'),
    );
    assert.equal(callbackLines.length, 1, JSON.stringify(callbackLines));
  });

  test('a first visit shows the server login form, then lands on the page', async () => {
    const browser = gw.browser();
    const form = await browser.open(`${gw.url}/start`);
    assert.equal(form.status, 200);
    assert.match(form.body, /name="password"/);
    const continueTo =
      /name="continue" value="([^"]*)"/.exec(form.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const page = await browser.submit(`${gw.example.url}/login`, {
      username: 'bob',
      password: 'bob-password',
      continue: continueTo,
    });
    assert.equal(page.url, `${gw.url}/start`);
    assert.match(page.body, /Bob Example/);
  });

  test('the POST-JSON envelope entry signs in', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'carol');
    gw.example.requests.length = 0;
    const page = await browser.open(`${gw.url}/_sso/login/example-json?return_to=/inbox`);
    assert.equal(page.url, `${gw.url}/inbox`);
    const token = gw.example.requests.find(({ path }) => path === '/json/token');
    assert.ok(token);
    assert.equal(token.method, 'POST');
    assert.equal((token.body as Record<string, unknown>).grant_type, 'authorization_code');
    assert.equal(token.headers['content-type'], 'application/json;charset=utf-8');
  });

  test('the standard entry signs in with a form POST, HTTP Basic and PKCE', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'dave');
    gw.example.requests.length = 0;
    const page = await browser.open(`${gw.url}/_sso/login/example-standard?return_to=/x`);
    const authorize = gw.example.requests.find(({ path }) => path === '/oauth2/authorize');
    const token = gw.example.requests.find(({ path }) => path === '/oauth2/token');
    assert.equal(page.status, 200, page.body);
    assert.equal(authorize?.query.code_challenge_method, 'S256');
    assert.match(String(token?.headers.authorization), /^Basic /);
    assert.match(String((token?.body as Record<string, unknown>).code_verifier), /^[\w-]{43}$/);
  });

  test('a request that is not a page gets 401 JSON instead of a redirect', async () => {
    const response = await gw.browser().open(`${gw.url}/api/data`, { accept: 'application/json' });
    assert.equal(response.status, 401);
    assert.equal(
      (JSON.parse(response.body) as { error: { code: string } }).error.code,
      'unauthenticated',
    );
  });

  test('sign-out ends the session everywhere and tells the server', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    await browser.open(`${gw.url}/`);
    const cookies = new Map(browser.cookies(gw.url));
    const signedOut = await signOut(browser, gw.url);
    assert.equal(signedOut.url, `${gw.url}/_sso/signed-out`);
    assert.ok(signedOut.hops.some(({ url }) => url.startsWith(`${gw.example.url}/logout`)));
    assert.doesNotMatch(signedOut.body, /http-equiv/i);
    // The copied cookie of the ended session is refused.
    const replay = gw.browser();
    for (const [name, value] of cookies) replay.setCookie(gw.url, name, value);
    const me = await replay.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 401);
  });

  test('a planted session id never becomes valid', async () => {
    const browser = gw.browser();
    const planted = 'A'.repeat(43);
    browser.setCookie(gw.url, 'ssogate_session', planted);
    await signInAtExample(browser, gw.example.url);
    await browser.open(`${gw.url}/`);
    assert.notEqual(browser.cookies(gw.url).get('ssogate_session'), planted);
    const attacker = gw.browser();
    attacker.setCookie(gw.url, 'ssogate_session', planted);
    assert.equal(
      (await attacker.open(`${gw.url}/_sso/me`, { accept: 'application/json' })).status,
      401,
    );
  });
});
