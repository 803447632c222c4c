import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * WeCom- and DingTalk-style sign-ins as plain entries (docs/entries.md#shapes-beyond-the-basic-flow),
 * over real HTTP against the example server's /wecom/ and /dingtalk/ styles:
 * an application token cached in storage, the code in the user-info call, a
 * call after user info, a callback parameter named authCode, and their error
 * envelopes ending in a coded error and no session.
 */
describe('entries beyond the basic flow', () => {
  let gw: TestGateway;
  let browser: TestBrowser;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ wecom, dingtalk }) => [wecom, dingtalk],
      usernames: ['alice', 'bob'],
    });
  });
  after(async () => gw.close());
  beforeEach(async () => {
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.requests.length = 0;
  });

  const paths = () => gw.example.requests.map(({ path }) => path);
  const me = async () => browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });

  async function failsWith(entry: string, code: string): Promise<void> {
    const page = await browser.open(`${gw.url}/_sso/login/${entry}?return_to=/x`);
    assert.equal(page.status, 502, page.body);
    assert.match(page.body, new RegExp(code));
    assert.ok(!page.headers.getSetCookie().some((cookie) => cookie.startsWith('ssogate_session=')));
    assert.equal((await me()).status, 401);
  }

  test('WeCom: application token, code in user info, member details from a second call', async () => {
    await gw.storage.appTokens.put('example-wecom', {
      token: 'stale',
      fingerprint: 'of other settings',
      expiresAt: Date.now() + 3_600_000,
    });
    const page = await browser.open(`${gw.url}/_sso/login/example-wecom?return_to=/inbox`);
    assert.equal(page.url, `${gw.url}/inbox`, page.body);
    const authorize = page.hops[0]?.location ?? '';
    assert.match(authorize, /\/wecom\/connect\/oauth2\/authorize\?.*state=[^&#]+#wechat_redirect$/);
    assert.deepEqual(paths().slice(1), [
      '/wecom/cgi-bin/gettoken',
      '/wecom/cgi-bin/user/getuserinfo',
      '/wecom/cgi-bin/user/get',
    ]);
    const [, gettoken, getuserinfo, member] = gw.example.requests;
    assert.equal(gettoken?.query.corpid, 'demo-app');
    assert.equal(getuserinfo?.query.access_token, member?.query.access_token);
    assert.match(getuserinfo?.query.code ?? '', /\S/);
    assert.equal(member?.query.userid, 'alice');
    assert.deepEqual(
      { ...(JSON.parse((await me()).body) as Record<string, unknown>) },
      {
        userId: 'alice',
        userName: 'Alice Example',
        email: 'alice@example.test',
        mobile: null,
        department: null,
        isAdmin: false,
        entryId: 'example-wecom',
      },
    );
    const cached = await gw.storage.appTokens.get('example-wecom');
    assert.equal(cached?.token, getuserinfo?.query.access_token);
  });

  test('WeCom: a second sign-in reuses the cached application token', async () => {
    await browser.open(`${gw.url}/_sso/login/example-wecom?return_to=/a`);
    gw.example.requests.length = 0;
    const again = gw.browser();
    await signInAtExample(again, gw.example.url, 'bob');
    gw.example.requests.length = 0;
    const page = await again.open(`${gw.url}/_sso/login/example-wecom?return_to=/b`);
    assert.equal(page.url, `${gw.url}/b`, page.body);
    assert.ok(!paths().includes('/wecom/cgi-bin/gettoken'));
    assert.ok(paths().includes('/wecom/cgi-bin/user/getuserinfo'));
  });

  test('WeCom: a revoked application token fails one sign-in, is dropped, and the next fetches anew', async () => {
    await browser.open(`${gw.url}/_sso/login/example-wecom?return_to=/a`);
    const revoked = await gw.storage.appTokens.get('example-wecom');
    assert.ok(revoked);
    await fetch(`${gw.example.url}/wecom/test/revoke-tokens`, { method: 'POST' });
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    await failsWith('example-wecom', 'userinfo_request_failed');
    assert.equal(await gw.storage.appTokens.get('example-wecom'), undefined);
    gw.example.requests.length = 0;
    const page = await browser.open(`${gw.url}/_sso/login/example-wecom?return_to=/c`);
    assert.equal(page.url, `${gw.url}/c`, page.body);
    assert.ok(paths().includes('/wecom/cgi-bin/gettoken'));
  });

  test('WeCom: the errcode envelope of a refused code is a coded error and no session', async () => {
    gw.example.failNext('userinfo', {
      status: 200,
      body: '{"errcode":40029,"errmsg":"invalid code"}',
    });
    await failsWith('example-wecom', 'userinfo_request_failed');
  });

  test('WeCom: a refused application-token call is app_token_failed', async () => {
    await gw.storage.appTokens.drop(
      'example-wecom',
      (await gw.storage.appTokens.get('example-wecom'))?.token ?? '',
    );
    gw.example.failNext('token', {
      status: 200,
      body: '{"errcode":40001,"errmsg":"invalid credential"}',
    });
    await failsWith('example-wecom', 'app_token_failed');
  });

  test('DingTalk: the callback carries authCode, the token goes in its own header', async () => {
    const page = await browser.open(`${gw.url}/_sso/login/example-dingtalk?return_to=/d`);
    assert.equal(page.url, `${gw.url}/d`, page.body);
    assert.match(page.hops[1]?.location ?? '', /[?&]authCode=/);
    const token = gw.example.requests.find(({ path }) => path.endsWith('/userAccessToken'));
    assert.equal((token?.body as Record<string, unknown>).grantType, 'authorization_code');
    const body = JSON.parse((await me()).body) as Record<string, unknown>;
    assert.equal(body.userId, 'union-alice');
    assert.equal(body.userName, 'Alice Example');
  });

  test('DingTalk: its error envelope is a coded error and no session', async () => {
    gw.example.failNext('token', {
      status: 400,
      body: '{"code":"invalidParameter.authCode.notFound","message":"authCode is invalid","requestid":"r"}',
    });
    await failsWith('example-dingtalk', 'token_request_failed');
  });
});
