import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startExampleServer } from './server.js';
import type { ExampleServer } from './types.js';
import { TestBrowser, authorizeQuery, callback, signIn } from './test-support/browser-fixture.js';

describe('example server, GitHub style', () => {
  let server: ExampleServer;
  before(async () => {
    server = await startExampleServer();
  });
  after(async () => {
    await server.close();
  });

  const authorizePath = `/github/login/oauth/authorize?${authorizeQuery({ client_id: 'demo-app', state: 'gh' })}`;
  const codeFor = async (username = 'alice') =>
    (
      await signIn(new TestBrowser(), server.url, authorizePath, {
        username,
        password: `${username}-password`,
      })
    ).get('code') ?? '';

  /** The token call as a form POST, with the Accept header given. */
  const exchange = (fields: Record<string, string>, accept?: string) =>
    fetch(`${server.url}/github/login/oauth/access_token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(accept === undefined ? {} : { accept }),
      },
      body: new URLSearchParams(fields).toString(),
    });
  const credentials = { client_id: 'demo-app', client_secret: 'demo-secret' };

  test('form POST for the token, JSON when asked, then the user by Bearer with a numeric id', async () => {
    const response = await exchange(
      { ...credentials, code: await codeFor('bob'), redirect_uri: callback },
      'application/json',
    );
    assert.equal(response.status, 200);
    const token = (await response.json()) as { access_token: string; token_type: string };
    assert.equal(token.token_type, 'bearer');
    const user = await fetch(`${server.url}/github/api/user`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    assert.deepEqual(await user.json(), {
      login: 'bob',
      id: 1002,
      name: 'Bob Builder',
      email: 'bob@example.test',
    });
  });

  test('without Accept: JSON the token comes form-encoded, as GitHub sends it', async () => {
    const response = await exchange({ ...credentials, code: await codeFor() });
    assert.match(response.headers.get('content-type') ?? '', /^application\/x-www-form-urlencoded/);
    const fields = new URLSearchParams(await response.text());
    assert.equal(fields.get('token_type'), 'bearer');
    const user = await fetch(`${server.url}/github/api/user`, {
      headers: { authorization: `token ${fields.get('access_token') ?? ''}` },
    });
    assert.equal(((await user.json()) as { id: number }).id, 1001);
  });

  test('a wrong secret or code is HTTP 200 with an error; a wrong token is 401', async () => {
    const code = await codeFor();
    const wrongSecret = await exchange(
      { ...credentials, client_secret: 'not-it', code },
      'application/json',
    );
    assert.equal(wrongSecret.status, 200);
    assert.equal(
      ((await wrongSecret.json()) as { error: string }).error,
      'incorrect_client_credentials',
    );
    const wrongUri = await exchange(
      { ...credentials, code, redirect_uri: 'http://elsewhere.test/' },
      'application/json',
    );
    assert.equal(((await wrongUri.json()) as { error: string }).error, 'bad_verification_code');
    const user = await fetch(`${server.url}/github/api/user`, {
      headers: { authorization: 'Bearer nothing-issued' },
    });
    assert.equal(user.status, 401);
    assert.deepEqual(await user.json(), {
      message: 'Bad credentials',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    });
  });
});
