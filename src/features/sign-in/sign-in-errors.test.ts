import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * Every error code of the sign-in flow (docs/errors.md#signing-in), each produced by a real
 * failure of the example server or of the browser, ending on an error page
 * with its status, code and reference, and audited.
 */
describe('sign-in failures', () => {
  let gw: TestGateway;
  let browser: TestBrowser;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle, jsonStyle }) => [
        { ...getStyle, timeoutMs: 300 },
        { ...jsonStyle, userInfoParse: "userId = JSON_PATH($response, 'data.id')" },
        { ...getStyle, id: 'closed', name: 'Closed', provisioning: { createUsers: false } },
        { ...getStyle, id: 'off', name: 'Off', enabled: false },
      ],
    });
  });
  after(async () => gw.close());
  beforeEach(async () => {
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.requests.length = 0;
  });

  const tokenCalls = () => gw.example.requests.filter(({ path }) => path.endsWith('/token')).length;

  async function failsWith(url: string, status: number, code: string): Promise<string> {
    const page = await browser.open(url);
    assert.equal(page.status, status, page.body);
    assert.match(page.body, new RegExp(`Error code: <code>${code}</code>|${code}`));
    assert.match(page.body, /Reference/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    // A failed callback issues no session.
    assert.ok(!page.headers.getSetCookie().some((cookie) => cookie.startsWith('ssogate_session=')));
    // The error page goes out before its audit event is written.
    await waitForAuditEvent(gw.storage.audit, { kind: 'sign_in' }, (event) => event.code === code);
    return page.body;
  }

  const start = (entry = 'example-get') => `${gw.url}/_sso/login/${entry}?return_to=/x`;

  test('token call: a 500 is token_request_failed', async () => {
    gw.example.failNext('token', { status: 500, body: 'boom' });
    await failsWith(start(), 502, 'token_request_failed');
  });

  test('token call: a garbage body is token_parse_failed', async () => {
    gw.example.failNext('token', { body: '<html>not json</html>' });
    await failsWith(start(), 502, 'token_parse_failed');
  });

  test('token call: a time-out is token_request_failed', async () => {
    gw.example.failNext('token', { delayMs: 3000 });
    await failsWith(start(), 502, 'token_request_failed');
  });

  test('token call: a 200 envelope error fails the success condition', async () => {
    gw.example.failNext('token', { body: '{"errcode":40029,"errmsg":"invalid code"}' });
    await failsWith(start('example-json'), 502, 'token_request_failed');
  });

  test('user-info call: a 500 and a garbage body', async () => {
    gw.example.failNext('userinfo', { status: 500 });
    await failsWith(start(), 502, 'userinfo_request_failed');
    gw.example.failNext('userinfo', { body: '{"nouser":true}' });
    await failsWith(start(), 502, 'userinfo_parse_failed');
  });

  test('the server declines: provider_error shows its description, escaped', async () => {
    gw.example.failNext('authorize', {
      error: 'access_denied',
      description: '<script>alert(1)</script>',
    });
    const body = await failsWith(start(), 400, 'provider_error');
    assert.doesNotMatch(body, /<script>alert/);
    assert.match(body, /access_denied/);
    assert.equal(tokenCalls(), 0);
  });

  test('no code: missing_code, and no token call', async () => {
    gw.example.failNext('authorize', { omitCode: true });
    await failsWith(start(), 400, 'missing_code');
    assert.equal(tokenCalls(), 0);
  });

  test('a replayed callback is state_invalid, with no second token call', async () => {
    const page = await browser.open(start());
    assert.equal(page.status, 200);
    const callback = page.hops.find(({ url }) => url.includes('/_sso/callback/'))?.url ?? '';
    assert.equal(tokenCalls(), 1);
    await failsWith(callback, 400, 'state_invalid');
    assert.equal(tokenCalls(), 1);
  });

  test("a tampered state, and another browser's state, are state_invalid", async () => {
    const first = await browser.open(start(), { maxHops: 1 });
    const authorizeUrl = new URL(first.hops[0]?.location ?? '');
    const state = authorizeUrl.searchParams.get('state') ?? '';
    await failsWith(
      `${gw.url}/_sso/callback/example-get?code=c&state=${state}x`,
      400,
      'state_invalid',
    );
    const other = gw.browser();
    const page = await other.open(`${gw.url}/_sso/callback/example-get?code=c&state=${state}`);
    assert.equal(page.status, 400);
    assert.match(page.body, /state_invalid/);
    // The state was consumed by that attempt: it fails for its own browser too now.
    await failsWith(
      `${gw.url}/_sso/callback/example-get?code=c&state=${state}`,
      400,
      'state_invalid',
    );
    assert.equal(tokenCalls(), 0);
  });

  test('a state started for one entry is refused at another (mix-up)', async () => {
    const first = await browser.open(start(), { maxHops: 1 });
    const state = new URL(first.hops[0]?.location ?? '').searchParams.get('state') ?? '';
    await failsWith(
      `${gw.url}/_sso/callback/example-json?code=c&state=${state}`,
      400,
      'state_invalid',
    );
    assert.equal(tokenCalls(), 0);
  });

  test('a code with control or non-ASCII characters is code_invalid, never sent; the browser starts again cleanly', async () => {
    for (const code of ['a%00b', '%ff%fe', '%E4%BD%A0', 'a%0D%0Ab', '%7F', 'x%E4%BD']) {
      const first = await browser.open(start(), { maxHops: 1 });
      const state = new URL(first.hops[0]?.location ?? '').searchParams.get('state') ?? '';
      await failsWith(
        `${gw.url}/_sso/callback/example-get?code=${code}&state=${state}`,
        400,
        'code_invalid',
      );
      assert.equal(tokenCalls(), 0, code);
    }
    // The "try again" link starts a new sign-in, which goes through.
    const again = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/x`);
    assert.equal(again.status, 200, again.body);
    assert.equal(again.url, `${gw.url}/x`);
    assert.equal(tokenCalls(), 1);
  });

  test('a state with control or non-ASCII characters is state_invalid, before any lookup', async () => {
    for (const state of ['a%00b', '%ff%fe', '%E4%BD%A0', '%0A']) {
      await failsWith(
        `${gw.url}/_sso/callback/example-get?code=c&state=${state}`,
        400,
        'state_invalid',
      );
    }
    assert.equal(tokenCalls(), 0);
  });

  test('repeated parameters are refused', async () => {
    const first = await browser.open(start(), { maxHops: 1 });
    const state = new URL(first.hops[0]?.location ?? '').searchParams.get('state') ?? '';
    await failsWith(
      `${gw.url}/_sso/callback/example-get?code=a&code=b&state=${state}`,
      400,
      'missing_code',
    );
    assert.equal(tokenCalls(), 0);
  });

  test('unknown and disabled entries', async () => {
    const unknown = await browser.open(`${gw.url}/_sso/login/nope`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /entry_unknown/);
    const off = await browser.open(`${gw.url}/_sso/login/off`);
    assert.equal(off.status, 403);
    assert.match(off.body, /entry_disabled/);
  });

  test('a disabled user, an account from elsewhere, and a closed entry', async () => {
    assert.equal((await browser.open(start())).status, 200);
    const alice = await gw.storage.users.findByUserId('alice');
    assert.ok(alice);
    await gw.storage.users.setEnabled(alice.id, false, Date.now());
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    await failsWith(start(), 403, 'user_disabled');
    await gw.storage.users.setEnabled(alice.id, true, Date.now());
    await failsWith(start('example-json'), 409, 'account_conflict');
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'bob');
    await failsWith(start('closed'), 403, 'signup_not_allowed');
  });
});
