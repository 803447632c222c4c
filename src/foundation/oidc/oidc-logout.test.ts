import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import { signOutForm } from '../../test-support/sign-out.js';
import { sessionHash } from '../../features/sessions/session-service.js';
import type { OidcTestSetup } from './test-support/oidc-gateway.js';
import {
  sharedDatabaseEnv,
  startOidcSetup,
  startSecondInstance,
  submitProviderForm,
} from './test-support/oidc-gateway.js';
import { signInAtProvider } from './test-support/openid-provider.js';

/**
 * Signing out of an OpenID Connect entry at a real provider: RP-initiated
 * logout through the provider's own confirmation page, and the provider's
 * back-channel logout notice ending the session on another gateway
 * instance over the same database.
 */
describe('OpenID Connect logout at a real provider', () => {
  let setup: OidcTestSetup;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-oidc-logout-'));
    setup = await startOidcSetup(() => ({}), {
      gateway: { env: sharedDatabaseEnv(dir) },
      provider: { backchannelLogout: true },
    });
  });
  after(async () => {
    await setup.close();
    await rm(dir, { recursive: true, force: true });
  });

  const signIn = async (browser: TestBrowser, login: string) => {
    const page = await signInAtProvider(browser, `${setup.gw.url}/_sso/login/oidc`, login);
    assert.equal(page.url, `${setup.gw.url}/`, page.body.slice(0, 300));
  };
  const me = async (browser: TestBrowser, url = setup.gw.url) =>
    (await browser.open(`${url}/_sso/me`, { accept: 'application/json' })).status;

  test('signing out sends the browser to the end_session_endpoint with the id_token, and back', async () => {
    const { gw, provider } = setup;
    const browser = gw.browser();
    await signIn(browser, 'alice');
    const confirm = await browser.open(`${gw.url}/_sso/logout`);
    // Browsers hold a form's redirects to CSP form-action: the provider's
    // end_session_endpoint must be allowed, or the browser stays on the form.
    assert.match(
      confirm.headers.get('content-security-policy') ?? '',
      new RegExp(`form-action 'self' ${new URL(provider.issuer).origin}[ ;]`),
    );
    const { action, csrf } = signOutForm(confirm.body);
    const atProvider = await browser.submit(`${gw.url}${action}`, { csrf });
    const toProvider = atProvider.hops.find((hop) => hop.location?.startsWith(provider.issuer));
    const endSession = new URL(toProvider?.location ?? '');
    assert.equal(endSession.pathname, '/session/end');
    assert.match(endSession.searchParams.get('id_token_hint') ?? '', /^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(
      endSession.searchParams.get('post_logout_redirect_uri'),
      `${gw.url}/_sso/signed-out`,
    );
    // The provider's own confirmation page, answered yes.
    const signedOut = await submitProviderForm(browser, atProvider, { logout: 'yes' });
    assert.equal(signedOut.url, `${gw.url}/_sso/signed-out`);
    assert.equal(await me(browser), 401);
    // The provider's session ended too: signing in again shows its login page.
    const again = await browser.open(`${gw.url}/_sso/login/oidc`);
    assert.match(again.body, /name="login"/);
  });

  test("the provider's back-channel logout ends the session on another instance at once", async () => {
    const { gw, provider } = setup;
    const second = await startSecondInstance(gw);
    try {
      const browser = gw.browser();
      await signIn(browser, 'bob');
      // The same session cookie at the second instance.
      const cookie = browser.cookies(gw.url);
      for (const [name, value] of cookie) browser.setCookie(second.url, name, value);
      assert.equal(await me(browser, second.url), 200);

      // Signing out at the provider directly (another application's logout):
      // it posts a logout token to the gateway's back-channel route.
      const confirm = await browser.open(`${provider.issuer}/session/end`);
      const done = await submitProviderForm(browser, confirm, { logout: 'yes' });
      assert.equal(done.status, 200, done.body.slice(0, 200));
      assert.equal(await me(browser, second.url), 401);
      assert.equal(await me(browser), 401);
      assert.ok(gw.logLines.some((line) => line.includes('backchannel')));
    } finally {
      await second.close();
    }
  });

  test("the provider's front-channel logout (iss and sid) ends the session; a wrong iss or no sid ends nothing", async () => {
    const { gw, provider } = setup;
    const browser = gw.browser();
    await signIn(browser, 'alice');
    const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const record = await gw.storage.upstreamSessions.get(sessionHash(sessionId));
    const sid = record?.providerSid;
    assert.ok(typeof sid === 'string' && sid !== '', 'the id_token carried a sid');
    // Loaded in the provider's iframe: no gateway cookie comes with it.
    const frontChannel = (query: Record<string, string>) =>
      fetch(`${gw.url}/_sso/frontchannel-logout/oidc?${new URLSearchParams(query).toString()}`);
    for (const query of [{ iss: provider.issuer }, { iss: 'https://elsewhere.example', sid }]) {
      const refused = await frontChannel(query);
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /frontchannel_logout_invalid/);
    }
    assert.equal(await me(browser), 200);
    const done = await frontChannel({ iss: provider.issuer, sid });
    assert.equal(done.status, 200);
    assert.equal(done.headers.get('cache-control'), 'no-store');
    const policy = done.headers.get('content-security-policy') ?? '';
    assert.match(policy, new RegExp(`frame-ancestors ${new URL(provider.issuer).origin}(;|$)`));
    assert.equal(await me(browser), 401);
  });

  test('a logout token that is forged, replayed or absent ends nothing', async () => {
    const { gw } = setup;
    const post = (body: string) =>
      fetch(`${gw.url}/_sso/backchannel-logout/oidc`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const absent = await post('');
    assert.equal(absent.status, 400);
    assert.equal(((await absent.json()) as { code: string }).code, 'logout_token_invalid');
    const forged = await post(
      `logout_token=${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"alice"}').toString('base64url')}.`,
    );
    assert.equal(forged.status, 400);
  });
});
