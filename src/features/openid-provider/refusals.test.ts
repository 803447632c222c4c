import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import { codeLifetimeMs, tokenLifetimeMs } from './lifetimes.js';
import {
  clientSecret,
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
  tokenRequest,
} from './test-support/provider-fixture.js';

const verifier = 'a-pkce-code-verifier-of-enough-length-0123456789';
const challenge = sha256Base64url(verifier);

describe('OpenID Provider: refusals', () => {
  let gw: TestGateway;
  let now = Date.now();
  let browser: TestBrowser;
  before(async () => {
    gw = await startProviderGateway({ clock: () => now });
    await registerClient(gw, 'app');
    await registerClient(gw, 'other');
    await registerClient(gw, 'spa', { secretHash: null });
    await registerClient(gw, 'native', {
      secretHash: null,
      redirectUris: [
        'http://127.0.0.1/callback',
        'http://[::1]:8080/cb?app=1',
        'http://localhost:9/cb',
      ],
    });
    await registerClient(gw, 'bobs-only', { allowedUsers: ['bob'], allowedGroups: ['ops'] });
    await registerClient(gw, 'other-entry', { allowedEntries: ['elsewhere'] });
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
  });
  after(() => gw.close());

  const authorizeUrl = (parameters: Record<string, string>) =>
    `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: redirectUri,
      scope: 'openid',
      state: 'the-state',
      ...parameters,
    }).toString()}`;

  async function codeFor(parameters: Record<string, string> = {}, as = browser): Promise<string> {
    const { arrived } = await followTo(as, authorizeUrl(parameters));
    const code = arrived?.searchParams.get('code');
    assert.ok(typeof code === 'string', `a code, not ${arrived?.search ?? 'a page'}`);
    return code;
  }

  async function exchange(fields: Record<string, string>, clientId = 'app') {
    const response = await tokenRequest(gw.url, clientId, {
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      ...fields,
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, string>,
      cacheControl: response.headers.get('cache-control'),
    };
  }

  const userinfo = (accessToken: string) =>
    fetch(`${gw.url}/_sso/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

  /** An error page of ours, the browser not sent to the client. */
  async function assertErrorPage(url: string, status: number, code: string) {
    const answer = await followTo(browser, url);
    assert.equal(answer.arrived, undefined, `not sent back for ${url}`);
    assert.equal(answer.status, status);
    assert.match(answer.body, new RegExp(code));
  }

  test("an unknown client, or a redirect URI not exactly one of the client's, gets a page", async () => {
    await assertErrorPage(authorizeUrl({ client_id: 'nobody' }), 400, 'oidc_authorization_invalid');
    for (const near of [
      `${redirectUri}/more`,
      redirectUri.slice(0, -1),
      redirectUri.replace('callback', 'CALLBACK'),
      `${redirectUri}?extra=1`,
      `${redirectUri}#part`,
    ]) {
      await assertErrorPage(
        authorizeUrl({ redirect_uri: near }),
        400,
        'oidc_authorization_invalid',
      );
    }
    await assertErrorPage(
      `${authorizeUrl({})}&redirect_uri=${encodeURIComponent(redirectUri)}`,
      400,
      'oidc_authorization_invalid',
    );
  });

  test("a public client's loopback IP redirect URI on any port; path, query and name exact", async () => {
    const native = (uri: string) =>
      authorizeUrl({
        client_id: 'native',
        redirect_uri: uri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
    for (const uri of [
      'http://127.0.0.1:51234/callback',
      'http://[::1]:1/cb?app=1',
      'http://127.0.0.1/callback',
    ]) {
      const { arrived } = await followTo(browser, native(uri), uri);
      const code = arrived?.searchParams.get('code');
      assert.ok(typeof code === 'string', `a code at ${uri}`);
      // Redeemed with the redirect URI it was sent to, port and all (RFC 6749 §4.1.3).
      const redeemed = await fetch(`${gw.url}/_sso/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: uri,
          client_id: 'native',
          code_verifier: verifier,
        }).toString(),
      });
      assert.equal(redeemed.status, 200, uri);
    }
    for (const near of [
      'http://127.0.0.1:51234/callback/x',
      'http://127.0.0.1:51234/Callback',
      'http://[::1]:2/cb',
      'http://localhost:1234/cb',
      'https://127.0.0.1:51234/callback',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:99999/callback',
    ]) {
      await assertErrorPage(native(near), 400, 'oidc_authorization_invalid');
    }
    // A confidential client's loopback redirect URI stays exact, port included.
    await assertErrorPage(
      authorizeUrl({ redirect_uri: redirectUri.replace(':9/', ':10/') }),
      400,
      'oidc_authorization_invalid',
    );
  });

  test('after the client and redirect URI are right, errors go back to it with the state', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'profile' }, 'invalid_scope'],
      [{ client_id: 'spa' }, 'invalid_request'],
      [{ code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ prompt: 'select_account' }, 'invalid_request'],
      [{ prompt: 'none consent' }, 'invalid_request'],
      [{ request: 'eyJ' }, 'request_not_supported'],
    ];
    for (const [parameters, error] of cases) {
      const { arrived } = await followTo(browser, authorizeUrl(parameters));
      assert.equal(arrived?.searchParams.get('error'), error, JSON.stringify(parameters));
      assert.equal(arrived.searchParams.get('state'), 'the-state');
      assert.equal(arrived.searchParams.get('iss'), gw.url);
      assert.equal(arrived.searchParams.get('code'), null);
    }
  });

  test('prompt=none without a session at the gateway: login_required, back to the client', async () => {
    const stranger = gw.browser();
    const { arrived } = await followTo(stranger, authorizeUrl({ prompt: 'none' }));
    assert.equal(arrived?.searchParams.get('error'), 'login_required');
    // Once signed in at the gateway (through its entry), prompt=none answers with a code.
    const signedIn = gw.browser();
    await signInAtExample(signedIn, gw.example.url);
    const { arrived: before } = await followTo(signedIn, authorizeUrl({ prompt: 'none' }));
    assert.equal(before?.searchParams.get('error'), 'login_required');
    await codeFor({}, signedIn);
    assert.ok((await codeFor({ prompt: 'none' }, signedIn)).length >= 43);
  });

  test("prompt=none with an id_token_hint of another user, or not this provider's, is login_required", async () => {
    const idTokenOf = async (as: TestBrowser) => {
      const { body } = await exchange({ code: await codeFor({}, as) });
      assert.ok(typeof body.id_token === 'string');
      return body.id_token;
    };
    const bob = gw.browser();
    await signInAtExample(bob, gw.example.url, 'bob');
    const bobsHint = await idTokenOf(bob);
    const alicesHint = await idTokenOf(browser);
    const silently = (hint: string) =>
      followTo(browser, authorizeUrl({ prompt: 'none', id_token_hint: hint }));
    // Alice is signed in here: a hint naming Bob gets no code for Alice.
    const other = await silently(bobsHint);
    assert.equal(other.arrived?.searchParams.get('error'), 'login_required');
    assert.equal(other.arrived.searchParams.get('code'), null);
    assert.equal(other.arrived.searchParams.get('state'), 'the-state');
    // Alice's own, expired (a hint, not a credential), answers with a code.
    now += tokenLifetimeMs + 60_000;
    const own = await silently(alicesHint);
    assert.ok(own.arrived?.searchParams.get('code'), 'her own hint answers with a code');
    // A hint naming Alice but not signed by this provider names no one.
    const [header = '', payload = ''] = alicesHint.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    const refused = await silently(forged);
    assert.equal(refused.arrived?.searchParams.get('error'), 'login_required');
  });

  test("a user or an entry the client's rules refuse gets a coded page, no code", async () => {
    await assertErrorPage(authorizeUrl({ client_id: 'bobs-only' }), 403, 'oidc_user_refused');
    await assertErrorPage(authorizeUrl({ client_id: 'other-entry' }), 403, 'oidc_user_refused');
    // Each audited with the client, the user and the entry of the sign-in
    // (written once the page has gone: waited for).
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'oidc_code', outcome: 'failure' },
      (event) => event.detail?.clientId === 'other-entry',
    );
    const refused = await gw.storage.audit.list({
      kind: 'oidc_code',
      outcome: 'failure',
      limit: 2,
    });
    assert.deepEqual(
      refused.map((event) => [event.code, event.userId, event.entryId, event.detail]).reverse(),
      [
        ['oidc_user_refused', 'alice', 'corp', { clientId: 'bobs-only' }],
        ['oidc_user_refused', 'alice', 'corp', { clientId: 'other-entry' }],
      ],
    );
  });

  test('PKCE: a public client must send a challenge; a wrong verifier is refused', async () => {
    const code = await codeFor({ code_challenge: challenge, code_challenge_method: 'S256' });
    const wrong = await exchange({ code, code_verifier: `${verifier}x` });
    assert.deepEqual([wrong.status, wrong.body.error], [400, 'invalid_grant']);
    const missing = await exchange({
      code: await codeFor({ code_challenge: challenge, code_challenge_method: 'S256' }),
    });
    assert.deepEqual([missing.status, missing.body.error], [400, 'invalid_grant']);
    const right = await exchange({
      code: await codeFor({ code_challenge: challenge, code_challenge_method: 'S256' }),
      code_verifier: verifier,
    });
    assert.equal(right.status, 200);
    assert.equal(right.cacheControl, 'no-store');
  });

  test('a code presented twice is refused, and the token it gave is revoked', async () => {
    const code = await codeFor();
    const first = await exchange({ code });
    assert.equal(first.status, 200);
    assert.equal((await userinfo(first.body.access_token ?? '')).status, 200);
    const second = await exchange({ code });
    assert.deepEqual([second.status, second.body.error], [400, 'invalid_grant']);
    const refused = await userinfo(first.body.access_token ?? '');
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  test("another client's code is refused, and stays good for its own client", async () => {
    const code = await codeFor();
    const stolen = await exchange({ code }, 'other');
    assert.deepEqual([stolen.status, stolen.body.error], [400, 'invalid_grant']);
    assert.equal((await exchange({ code })).status, 200);
  });

  test('a code is refused after its minute, and with another redirect_uri', async () => {
    const late = await codeFor();
    now += codeLifetimeMs;
    const expired = await exchange({ code: late });
    assert.deepEqual([expired.status, expired.body.error], [400, 'invalid_grant']);
    const moved = await exchange({ code: await codeFor(), redirect_uri: `${redirectUri}/x` });
    assert.deepEqual([moved.status, moved.body.error], [400, 'invalid_grant']);
  });

  test('client authentication: unknown client, wrong secret, secret on a public client', async () => {
    const code = await codeFor();
    const unknown = await exchange({ code }, 'nobody');
    assert.deepEqual([unknown.status, unknown.body.error], [401, 'invalid_client']);
    const posted = await fetch(`${gw.url}/_sso/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: 'spa',
        client_secret: clientSecret,
      }).toString(),
    });
    assert.equal(posted.status, 401);
    const secretOnPublic = await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'oidc_token', outcome: 'failure' },
      (event) => event.code === 'provider_client_secret_wrong',
    );
    assert.deepEqual(secretOnPublic.detail, { clientId: 'spa', grantType: 'authorization_code' });
    // A grant type of the caller's own is not written to the trail.
    const odd = await tokenRequest(gw.url, 'app', { grant_type: 'x'.repeat(500) }, 'wrong');
    assert.equal(odd.status, 401);
    const oddEvent = await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'oidc_token', outcome: 'failure' },
      (event) => event.code === 'provider_client_secret_wrong' && event.detail?.clientId === 'app',
    );
    assert.deepEqual(oddEvent.detail, { clientId: 'app' });
    // The code was never redeemed by those attempts.
    assert.equal((await exchange({ code })).status, 200);
  });

  test('codes and tokens never reach the log', async () => {
    const code = await codeFor();
    const { body } = await exchange({ code });
    const log = gw.logLines.join('\n');
    for (const value of [code, body.access_token ?? '', body.id_token ?? '', clientSecret]) {
      assert.ok(value.length > 20);
      assert.ok(!log.includes(value), 'a code, token or secret was logged');
    }
  });
});
