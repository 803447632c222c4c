import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startExampleServer } from './server.js';
import type { ExampleServer } from './types.js';
import {
  TestBrowser,
  authorizeQuery,
  callback,
  redirectQuery,
  signIn,
} from './test-support/browser-fixture.js';

const verifier = 'v'.repeat(43);
const challenge = createHash('sha256').update(verifier).digest('base64url');
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('example server, standard RFC 6749 style', () => {
  let server: ExampleServer;
  before(async () => {
    server = await startExampleServer();
  });
  after(async () => {
    await server.close();
  });

  const authorizePath = (pkce: boolean) =>
    `/oauth2/authorize?${authorizeQuery({
      response_type: 'code',
      client_id: 'demo-app',
      state: 'st',
      ...(pkce ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
    })}`;
  const token = (code: string, extra: Record<string, string> = {}, secret = 'demo-secret') =>
    fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('demo-app', secret),
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: callback,
        ...extra,
      }).toString(),
    });

  test('authorize with PKCE, login form, code, token with Basic auth, Bearer user info', async () => {
    const query = await signIn(new TestBrowser(), server.url, authorizePath(true));
    const response = await token(query.get('code') ?? '', { code_verifier: verifier });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = (await response.json()) as { access_token: string; token_type: string };
    assert.equal(body.token_type, 'Bearer');
    const info = await fetch(`${server.url}/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    assert.deepEqual(await info.json(), {
      sub: 'alice',
      name: 'Alice Liddell',
      email: 'alice@example.test',
      groups: [],
      active: true,
    });
  });

  test('a PKCE mismatch or a missing verifier is invalid_grant', async () => {
    const browser = new TestBrowser();
    const first = (await signIn(browser, server.url, authorizePath(true))).get('code') ?? '';
    const wrong = await token(first, { code_verifier: 'w'.repeat(43) });
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_grant');
    const second = redirectQuery(
      await browser.exchange('GET', `${server.url}${authorizePath(true)}`),
    );
    assert.equal((await token(second.get('code') ?? '')).status, 400);
  });

  test('client authentication is HTTP Basic; a wrong secret is invalid_client', async () => {
    const browser = new TestBrowser();
    const code = (await signIn(browser, server.url, authorizePath(false))).get('code') ?? '';
    const wrong = await token(code, {}, 'nope');
    assert.equal(wrong.status, 401);
    assert.deepEqual(await wrong.json(), { error: 'invalid_client' });
    assert.equal((await token(code)).status, 200);
    assert.equal((await token(code)).status, 400);
    const bearer = await fetch(`${server.url}/oauth2/userinfo`, {
      headers: { authorization: 'Bearer made-up' },
    });
    assert.equal(bearer.status, 401);
  });

  test('a response_type other than code is refused back to the client', async () => {
    const response = await fetch(
      `${server.url}/oauth2/authorize?${authorizeQuery({ response_type: 'token', client_id: 'demo-app', state: 'x' })}`,
      { redirect: 'manual' },
    );
    const query = redirectQuery(response);
    assert.equal(query.get('error'), 'unsupported_response_type');
    assert.equal(query.get('state'), 'x');
  });
});
