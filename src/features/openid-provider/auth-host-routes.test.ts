import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { providerPaths } from './endpoints.js';
import { followTo, redirectUri, registerClient } from './test-support/provider-fixture.js';

/**
 * The provider's endpoints that read the browser's session answer on the
 * auth host only (foundation/http/auth-host-only.ts): a session handed to an
 * application host — here a name under a wildcard of
 * SSOGATE_FORWARD_AUTH_HOSTS that nobody runs — buys no code, id_token or
 * sign-out at any client there. The endpoints servers call answer on every
 * host, reading no cookie.
 */
describe('OpenID Provider: the browser-session endpoints on an application host', () => {
  let gw: TestGateway;
  let port = 0;
  let browser: TestBrowser;
  let hostSession = '';
  const at = (host: string, path: string) => `http://${host}.localhost:${port}${path}`;
  const dangling = () => `dangling.apps.localhost:${port}`;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'app',
    redirect_uri: redirectUri,
    scope: 'openid',
    state: 'the-state',
  }).toString();

  before(async () => {
    gw = await startTestGateway({
      entries: (presets) => [{ ...presets.jsonStyle, id: 'corp', isDefault: true }],
      usernames: ['alice'],
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${listening}`,
          SSOGATE_FORWARD_AUTH_HOSTS: `*.apps.localhost:${listening}`,
        };
      },
    });
    await registerClient(gw, 'app');
    browser = new TestBrowser({ connectTo: '127.0.0.1' });
    await signInAtExample(browser, gw.example.url);
    // Handed off to the application host: a session of its own there.
    const landed = await browser.open(at('dangling.apps', '/_sso/login?return_to=/_sso/me'), {
      accept: 'application/json',
    });
    assert.equal(landed.status, 200, landed.body);
    hostSession = browser.cookies(at('dangling.apps', '/')).get('ssogate_session') ?? '';
    assert.notEqual(hostSession, '');
  });
  after(async () => {
    await browser.close();
    await gw.close();
  });

  const onApplicationHost = (method: 'GET' | 'HEAD' | 'POST', url: string) =>
    gw.app.inject({
      method,
      url,
      headers: {
        host: dangling(),
        cookie: `ssogate_session=${hostSession}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      ...(method === 'POST' ? { payload: 'csrf=x&decision=allow' } : {}),
    });

  test('authorization and end-session: a GET is sent to the same path and query on the auth host', async () => {
    for (const path of [
      `${providerPaths.authorize}?${query}`,
      `${providerPaths.endSession}?client_id=app`,
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const answer = await onApplicationHost(method, path);
        assert.equal(answer.statusCode, 302, `${method} ${path}: ${answer.body}`);
        assert.equal(answer.headers.location, at('sso', path), `${method} ${path}`);
        assert.equal(answer.headers['cache-control'], 'no-store');
      }
    }
  });

  test('the consent form, and any other method, is 404 not_found there', async () => {
    for (const path of [providerPaths.consent, providerPaths.authorize, providerPaths.endSession]) {
      const answer = await onApplicationHost('POST', path);
      assert.equal(answer.statusCode, 404, `${path}: ${answer.body}`);
      assert.match(answer.body, /not_found/);
    }
  });

  test('token, userinfo, keys and discovery answer on every host, as on the auth host', async () => {
    const discovery = await onApplicationHost('GET', providerPaths.discovery);
    assert.equal(discovery.statusCode, 200);
    assert.equal(discovery.json<{ issuer: string }>().issuer, at('sso', ''));
    assert.equal((await onApplicationHost('GET', providerPaths.jwks)).statusCode, 200);
    // No client credentials: the token endpoint's own answer, not a redirect.
    const token = await onApplicationHost('POST', providerPaths.token);
    assert.equal(token.statusCode, 401, token.body);
    assert.match(token.body, /invalid_client/);
    // The browser's cookie is no access token.
    const userinfo = await onApplicationHost('GET', providerPaths.userinfo);
    assert.equal(userinfo.statusCode, 401, userinfo.body);
  });

  test("the redirected request is answered on the auth host, with the auth host's own session", async () => {
    const { arrived, visited } = await followTo(
      browser,
      at('dangling.apps', `${providerPaths.authorize}?${query}`),
    );
    assert.equal(visited[1], at('sso', `${providerPaths.authorize}?${query}`));
    assert.ok(arrived !== undefined, 'sent back to the client');
    assert.ok(arrived.searchParams.get('code'), 'a code, issued at the auth host');
    assert.equal(arrived.searchParams.get('iss'), at('sso', ''));
  });
});
