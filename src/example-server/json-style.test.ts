import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startExampleServer } from './server.js';
import type { ExampleServer } from './types.js';
import { TestBrowser, authorizeQuery, callback, signIn } from './test-support/browser-fixture.js';

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    // Exactly the content type the gateway sends.
    headers: { 'content-type': 'application/json;charset=utf-8' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  return response.json();
}

describe('example server, POST-JSON style', () => {
  let server: ExampleServer;
  before(async () => {
    server = await startExampleServer();
  });
  after(async () => {
    await server.close();
  });

  const authorizePath = `/json/authorize?${authorizeQuery({ appid: 'demo-app', state: 'js' })}`;
  const tokenBody = (code: string, secret = 'demo-secret') => ({
    grant_type: 'authorization_code',
    appid: 'demo-app',
    secret,
    code,
    redirect_uri: callback,
  });

  test('authorize, login form, code, token with openid, user info', async () => {
    const query = await signIn(new TestBrowser(), server.url, authorizePath, {
      username: 'bob',
      password: 'bob-password',
    });
    const token = (await postJson(
      `${server.url}/json/token`,
      tokenBody(query.get('code') ?? ''),
    )) as { errcode: number; data: { access_token: string; openid: string } };
    assert.equal(token.errcode, 0);
    const info = await postJson(`${server.url}/json/userinfo`, {
      access_token: token.data.access_token,
      openid: token.data.openid,
    });
    assert.deepEqual(info, {
      errcode: 0,
      data: { id: 'bob', name: 'Bob Builder', mail: 'bob@example.test', dept: 'Operations' },
    });
    const recorded = server.requests.find((request) => request.path === '/json/token');
    assert.equal((recorded?.body as Record<string, unknown>).secret, 'demo-secret');
  });

  test('errors come as 200 envelopes: invalid code, replay, wrong secret, wrong openid', async () => {
    const browser = new TestBrowser();
    const code = (await signIn(browser, server.url, authorizePath)).get('code') ?? '';
    assert.deepEqual(await postJson(`${server.url}/json/token`, tokenBody(code, 'bad')), {
      errcode: 40125,
      errmsg: 'invalid appsecret',
    });
    const first = (await postJson(`${server.url}/json/token`, tokenBody(code))) as {
      data: { access_token: string };
    };
    assert.deepEqual(await postJson(`${server.url}/json/token`, tokenBody(code)), {
      errcode: 40029,
      errmsg: 'invalid code',
    });
    const info = (await postJson(`${server.url}/json/userinfo`, {
      access_token: first.data.access_token,
      openid: 'someone-else',
    })) as { errcode: number };
    assert.equal(info.errcode, 40003);
  });
});
