import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startExampleServer } from './server.js';
import type { ExampleServer } from './types.js';
import {
  TestBrowser,
  authorizeQuery,
  callback,
  redirectQuery,
  signIn,
} from './test-support/browser-fixture.js';

describe('example server, GET style', () => {
  let server: ExampleServer;
  before(async () => {
    server = await startExampleServer();
  });
  after(async () => {
    await server.close();
  });

  const authorizePath = `/get/authorize?${authorizeQuery({ appid: 'demo-app', state: 's-1' })}`;
  const tokenUrl = (code: string, secret = 'demo-secret') =>
    `${server.url}/get/token?${new URLSearchParams({ appid: 'demo-app', secret, code, redirect_uri: callback }).toString()}`;

  test('authorize, login form, code, token, user info', async () => {
    const query = await signIn(new TestBrowser(), server.url, authorizePath);
    assert.equal(query.get('state'), 's-1');
    const token = await fetch(tokenUrl(query.get('code') ?? ''));
    assert.equal(token.status, 200);
    const tokenBody = (await token.json()) as Record<string, unknown>;
    assert.equal(tokenBody.token_type, 'bearer');
    assert.equal(tokenBody.expires_in, 7200);
    assert.equal(typeof tokenBody.access_token, 'string');
    const accessToken = String(tokenBody.access_token);
    const info = await fetch(`${server.url}/get/userinfo?access_token=${accessToken}`);
    assert.deepEqual(await info.json(), {
      errorcode: 0,
      user: {
        userId: 'alice',
        userName: 'Alice Liddell',
        enabled: true,
        email: 'alice@example.test',
        department: 'Engineering',
      },
    });
  });

  test('a browser signed in here is sent back at once, with no page', async () => {
    const browser = new TestBrowser();
    await signIn(browser, server.url, authorizePath);
    const silent = redirectQuery(await browser.exchange('GET', `${server.url}${authorizePath}`));
    assert.ok(silent.get('code'));
    assert.equal(silent.get('state'), 's-1');
    // After signing out here, the login form is back.
    const logout = await browser.exchange(
      'GET',
      `${server.url}/logout?redirect_uri=${encodeURIComponent(callback)}`,
    );
    assert.equal(logout.headers.get('location'), callback);
    assert.equal((await browser.exchange('GET', `${server.url}${authorizePath}`)).status, 200);
  });

  test('a code works once only, and only with the right secret and redirect_uri', async () => {
    const browser = new TestBrowser();
    const code = (await signIn(browser, server.url, authorizePath)).get('code') ?? '';
    const wrongSecret = await fetch(tokenUrl(code, 'wrong'));
    assert.equal(wrongSecret.status, 400);
    assert.deepEqual(await wrongSecret.json(), { error: 'invalid_client' });
    assert.equal((await fetch(tokenUrl(code))).status, 200);
    const replay = await fetch(tokenUrl(code));
    assert.equal(replay.status, 400);
    assert.deepEqual(await replay.json(), { error: 'invalid_grant' });

    const other = redirectQuery(await browser.exchange('GET', `${server.url}${authorizePath}`)).get(
      'code',
    );
    const mismatch = await fetch(
      `${server.url}/get/token?appid=demo-app&secret=demo-secret&code=${other ?? ''}&redirect_uri=http://evil.test/`,
    );
    assert.equal(mismatch.status, 400);
  });

  test('an unknown client or redirect_uri gets a page, never a redirect', async () => {
    const unknown = await fetch(`${server.url}/get/authorize?${authorizeQuery({ appid: 'nope' })}`);
    assert.equal(unknown.status, 400);
    const noRedirect = await fetch(
      `${server.url}/get/authorize?appid=demo-app&redirect_uri=javascript:x`,
    );
    assert.equal(noRedirect.status, 400);
  });

  test('a wrong password shows the form again; an unknown token is refused', async () => {
    const browser = new TestBrowser();
    const wrong = await browser.exchange('POST', `${server.url}/login`, {
      username: 'alice',
      password: 'nope',
      continue: '//evil.test/',
    });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /Wrong username or password/);
    const info = await fetch(`${server.url}/get/userinfo?access_token=made-up`);
    assert.equal(info.status, 401);
  });

  test('pages escape what they echo, and the form only continues to a local path', async () => {
    const html = await (
      await fetch(
        `${server.url}/get/authorize?${authorizeQuery({ appid: 'demo-app', state: '"><script>x</script>' })}`,
      )
    ).text();
    assert.doesNotMatch(html, /<script>/);
    const browser = new TestBrowser();
    const login = await browser.exchange('POST', `${server.url}/login`, {
      username: 'bob',
      password: 'bob-password',
      continue: '//evil.test/',
    });
    assert.equal(login.headers.get('location'), '/');
  });
});
