import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startExampleServer } from './server.js';
import type { ExampleServer } from './types.js';
import {
  TestBrowser,
  authorizeQuery,
  redirectQuery,
  signIn,
} from './test-support/browser-fixture.js';

describe('example server faults', () => {
  let server: ExampleServer;
  let browser: TestBrowser;
  before(async () => {
    server = await startExampleServer();
    browser = new TestBrowser();
    await signIn(browser, server.url, `/get/authorize?${authorizeQuery({ appid: 'demo-app' })}`);
  });
  after(async () => {
    await server.close();
  });

  const authorizeUrl = () =>
    `${server.url}/json/authorize?${authorizeQuery({ appid: 'demo-app', state: 'f' })}`;
  const tokenUrl = () => `${server.url}/get/token?appid=demo-app&secret=demo-secret&code=x`;

  test('authorize error redirects back with error, description and state', async () => {
    server.failNext('authorize', { error: 'access_denied', description: 'User said <no>' });
    const query = redirectQuery(await browser.exchange('GET', authorizeUrl()));
    assert.equal(query.get('error'), 'access_denied');
    assert.equal(query.get('error_description'), 'User said <no>');
    assert.equal(query.get('state'), 'f');
    assert.equal(query.get('code'), null);
  });

  test('omitCode redirects back with the state and no code; one fault, one request', async () => {
    server.failNext('authorize', { omitCode: true });
    const query = redirectQuery(await browser.exchange('GET', authorizeUrl()));
    assert.deepEqual([...query.keys()], ['state']);
    assert.ok(redirectQuery(await browser.exchange('GET', authorizeUrl())).get('code'));
  });

  test('a status fault answers with that status and body', async () => {
    server.failNext('token', { status: 503, body: 'down' });
    const response = await fetch(tokenUrl());
    assert.equal(response.status, 503);
    assert.equal(await response.text(), 'down');
  });

  test('a body fault answers 200 with garbage', async () => {
    server.failNext('userinfo', { body: '<html>not json' });
    const response = await fetch(`${server.url}/get/userinfo?access_token=x`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '<html>not json');
  });

  test('a redirect fault answers 302 to the given place', async () => {
    server.failNext('token', { redirectTo: 'http://elsewhere.test/' });
    const response = await fetch(tokenUrl(), { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), 'http://elsewhere.test/');
  });

  test('a delay fault holds the answer, then answers normally', async () => {
    server.failNext('token', { delayMs: 300 });
    const started = performance.now();
    const response = await fetch(tokenUrl());
    assert.ok(performance.now() - started >= 290);
    assert.equal(response.status, 400);
  });

  test('close() does not wait for a long delay', async () => {
    const other = await startExampleServer();
    other.failNext('userinfo', { delayMs: 60_000 });
    const hanging = fetch(`${other.url}/get/userinfo?access_token=x`).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await other.close();
    assert.equal(await hanging, 'aborted');
    assert.ok(performance.now() - started < 1000);
  });

  test('every request is recorded, with its query and parsed body', async () => {
    server.requests.length = 0;
    await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=abc',
    });
    await fetch(`${server.url}/nowhere?x=1`);
    assert.deepEqual(
      server.requests.map(({ method, path, query }) => ({ method, path, query })),
      [
        { method: 'POST', path: '/oauth2/token', query: {} },
        { method: 'GET', path: '/nowhere', query: { x: '1' } },
      ],
    );
    assert.deepEqual(
      { ...(server.requests[0]?.body as object) },
      {
        grant_type: 'authorization_code',
        code: 'abc',
      },
    );
    assert.ok(!server.requests.some((request) => request.path === '/get/token'));
  });
});
