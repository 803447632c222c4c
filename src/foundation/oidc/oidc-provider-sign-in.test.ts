import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { UserInfoSource } from '../../core/index.js';
import { compileEntry } from '../../core/index.js';
import type { OidcTestSetup } from './test-support/oidc-gateway.js';
import { redirectTarget, startOidcSetup } from './test-support/oidc-gateway.js';
import { signInAtProvider } from './test-support/openid-provider.js';

/**
 * An OpenID Connect entry against a real OpenID Provider (npm's
 * oidc-provider) on loopback, through its own login and consent pages: the
 * entry names only its issuer, discovery fills in the endpoints, and the
 * id_token is verified with the provider's keys.
 */
describe('OpenID Connect sign-in at a real provider', () => {
  let setup: OidcTestSetup;
  before(async () => {
    setup = await startOidcSetup();
  });
  after(async () => setup.close());

  test('discovery fills the endpoints; the login and consent pages lead to a session from verified claims', async () => {
    const { gw, provider } = setup;
    const browser = gw.browser();
    const start = await redirectTarget(browser, `${gw.url}/_sso/login/oidc`, provider.issuer);
    const authorize = new URL(start.location);
    assert.equal(authorize.origin + authorize.pathname, `${provider.issuer}/auth`);
    assert.equal(authorize.searchParams.get('response_type'), 'code');
    assert.equal(authorize.searchParams.get('scope'), 'openid profile email');
    assert.equal(authorize.searchParams.get('client_id'), provider.clientId);
    assert.match(authorize.searchParams.get('nonce') ?? '', /^[A-Za-z0-9_-]{43}$/);

    const page = await signInAtProvider(browser, start.location);
    assert.equal(page.status, 200, page.body);
    assert.equal(page.url, `${gw.url}/`);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    const user = JSON.parse(me.body) as Record<string, unknown>;
    assert.equal(user.userId, 'alice');
    assert.equal(user.email, 'alice@provider.test');
    assert.equal(user.userName, 'Alice Provider');
    assert.equal(user.entryId, 'oidc');

    const status = gw.gateway.oidc.status(provider.issuer);
    assert.equal(status.state, 'ok');
    assert.equal(status.endpoints?.token, `${provider.issuer}/token`);
  });

  test('a callback naming another issuer is refused before the code is used (RFC 9207)', async () => {
    const { gw, provider } = setup;
    const browser = gw.browser();
    const start = await redirectTarget(browser, `${gw.url}/_sso/login/oidc`, provider.issuer);
    const stop = await redirectTarget(browser, start.location, `${gw.url}/_sso/callback/oidc`);
    let callback = new URL(stop.location);
    if (!callback.searchParams.has('code')) {
      // First visit: the provider's login and consent pages.
      const done = await signInWithoutCallback(setup, browser, start.location);
      callback = new URL(done);
    }
    assert.equal(callback.searchParams.get('iss'), provider.issuer);
    callback.searchParams.set('iss', 'https://other-issuer.example');
    const refused = await browser.open(callback.toString());
    assert.equal(refused.status, 400);
    assert.match(refused.body, /callback_issuer_mismatch/);
    const line = gw.logLines.find((text) => text.includes('callback_issuer_mismatch'));
    assert.ok(line !== undefined);
  });

  test('the callback remembers the new session, so the page after it reads nothing back', async () => {
    const { gw, provider } = setup;
    const browser = gw.browser();
    const start = await redirectTarget(browser, `${gw.url}/_sso/login/oidc`, provider.issuer);
    const callback = await signInWithoutCallback(setup, browser, start.location);
    const rememberedBefore = gw.gateway.sessionCache.size;
    const answer = await browser.open(callback, { maxHops: 0 });
    assert.equal(answer.status, 302, answer.body);
    // Only the callback ran: no page has looked the session up yet.
    assert.equal(gw.gateway.sessionCache.size, rememberedBefore + 1);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as Record<string, unknown>).userId, 'alice');
  });
});

/**
 * An OpenID Connect entry's groupMapping (docs/entries.md#groups-and-administrators)
 * over the provider's `groups` claim, from the verified id_token and from
 * the user-info call: the same groups and administrator flag as a plain
 * OAuth2 entry reads from its user-info answer.
 */
describe('groups and the administrator flag from a real provider', () => {
  let setup: OidcTestSetup;
  const entryReading = (userInfo: UserInfoSource) =>
    compileEntry({
      id: 'oidc',
      name: 'OpenID Provider',
      enabled: true,
      appid: setup.provider.clientId,
      appsecret: setup.provider.clientSecret,
      oidc: { issuer: setup.provider.issuer, scope: 'profile email groups', userInfo },
      groupMapping: { expression: "JSON_GET($response, 'groups')", adminGroups: ['sso-admins'] },
    }).input;
  before(async () => {
    setup = await startOidcSetup();
  });
  after(async () => setup.close());

  for (const [userInfo, login, groups, isAdmin] of [
    ['claims', 'alice', ['staff', 'sso-admins'], true],
    ['userinfo', 'bob', ['staff'], false],
  ] as const) {
    test(`userInfo ${userInfo}: ${login} gets the groups and administrator flag the provider names`, async () => {
      const { gw } = setup;
      await gw.storage.entries.update('oidc', entryReading(userInfo), gw.gateway.clock());
      gw.gateway.entries.invalidate();
      const browser = gw.browser();
      const page = await signInAtProvider(browser, `${gw.url}/_sso/login/oidc`, login);
      assert.equal(page.url, `${gw.url}/`, page.body.slice(0, 300));
      const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
      assert.equal((JSON.parse(me.body) as Record<string, unknown>).isAdmin, isAdmin);
      const stored = await gw.storage.users.findByUserId(login);
      assert.deepEqual(stored?.groups, groups);
      assert.equal(stored.isAdmin, isAdmin);
    });
  }
});

/** Answers the provider's pages and returns the callback URL it sends the browser to. */
async function signInWithoutCallback(
  setup: OidcTestSetup,
  browser: Parameters<typeof signInAtProvider>[0],
  start: string,
): Promise<string> {
  const callbackPrefix = `${setup.gw.url}/_sso/callback/oidc`;
  let page = await browser.open(start, { maxHops: 0 });
  for (let step = 0; step < 12; step += 1) {
    const location = page.hops[0]?.location;
    if (location !== undefined) {
      const next = new URL(location, page.url).toString();
      if (next.startsWith(callbackPrefix)) return next;
      page = await browser.open(next, { maxHops: 0 });
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
    if (action === undefined) break;
    const fields: Record<string, string> = /name="login"/.test(page.body)
      ? { login: 'alice', password: 'any' }
      : {};
    for (const [, name, value] of page.body.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    )) {
      if (name !== undefined && value !== undefined) fields[name] = value;
    }
    page = await browser.request(
      'POST',
      new URL(action, page.url).toString(),
      new URLSearchParams(fields).toString(),
      { maxHops: 0 },
    );
  }
  throw new Error(
    `the provider did not send the browser back: ${page.status} ${page.body.slice(0, 200)}`,
  );
}
