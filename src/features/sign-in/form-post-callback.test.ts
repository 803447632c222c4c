import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { TestBrowser } from '../../test-support/browser.js';

/** The action and fields of the one form on a page (the example server's or the gateway's). */
function formOf(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]* action="([^"]*)"/.exec(page)?.[1];
  assert.ok(action !== undefined, page);
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields[unescape(match[1] ?? '')] = unescape(match[2] ?? '');
  }
  return { action: unescape(action), fields };
}

function unescape(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/**
 * Sign-ins whose server answers by form_post (OAuth 2.0 Form Post Response
 * Mode), over real HTTP against the example server's standard style. A
 * cross-site POST carries no SameSite=Lax cookie: that first post is sent
 * here without the browser's cookies, as a browser sends it.
 */
describe('a callback posted by the server (responseMode form_post)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ standard }) => [
        { ...standard, id: 'posted', name: 'Posted', responseMode: 'form_post' },
        standard,
      ],
    });
  });
  after(async () => gw.close());

  /** Starts a sign-in in `browser` and returns the form the server answers with. */
  async function serverForm(browser: TestBrowser, returnTo = '/after') {
    const page = await browser.open(`${gw.url}/_sso/login/posted?return_to=${returnTo}`);
    assert.equal(page.status, 200, page.body);
    const authorize = page.hops[0]?.location ?? '';
    assert.match(authorize, /[?&]response_mode=form_post(&|$)/);
    const form = formOf(page.body);
    assert.equal(form.action, `${gw.url}/_sso/callback/posted`);
    assert.ok(form.fields.code !== undefined && form.fields.state !== undefined);
    return form;
  }

  /** The server's cross-site POST: the browser leaves its Lax cookies out. */
  async function crossSitePost(form: { action: string; fields: Record<string, string> }) {
    return new TestBrowser().exchange('POST', form.action, form.fields);
  }

  test('the cross-site post gets a page that posts the fields again, same-site; that post signs in', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const form = await serverForm(browser);
    const relay = await crossSitePost(form);
    assert.equal(relay.status, 200);
    const csp = relay.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.match(csp, /form-action 'self'/);
    assert.equal(relay.headers.get('cache-control'), 'no-store');
    assert.equal(relay.headers.get('set-cookie'), null);
    const again = formOf(await relay.text());
    assert.equal(again.action, '/_sso/callback/posted');
    assert.deepEqual(again.fields, { ...form.fields, ssogate_relayed: '1' });
    // Nothing was consumed by the cookie-less post: the relayed one completes.
    const landed = await browser.submit(`${gw.url}${again.action}`, again.fields);
    const [relayed] = landed.hops;
    assert.equal(relayed?.status, 303);
    assert.equal(relayed.location, '/after');
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as { userId: string }).userId, 'alice');
    // The posted code and state are in no log line.
    const logs = gw.logLines.join('\n');
    assert.ok(!logs.includes(form.fields.code ?? ''), 'the code is logged');
    assert.ok(!logs.includes(form.fields.state ?? ''), 'the state is logged');
  });

  test('a post that carries the binding cookie (a same-site post) signs in at once', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const form = await serverForm(browser, '/direct');
    const landed = await browser.submit(form.action, form.fields);
    assert.equal(landed.hops[0]?.status, 303);
    assert.equal(landed.url, `${gw.url}/direct`);
  });

  test("another browser's post with a valid state is refused, and the state is spent", async () => {
    const victim = gw.browser();
    await signInAtExample(victim, gw.example.url);
    const form = await serverForm(victim);
    // A browser with a binding cookie of its own, from a sign-in it started.
    const other = gw.browser();
    await signInAtExample(other, gw.example.url, 'alice');
    await serverForm(other);
    const refused = await other.submit(form.action, { ...form.fields, ssogate_relayed: '1' });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /state_invalid/);
    const late = await victim.submit(form.action, form.fields);
    assert.equal(late.status, 400);
    assert.match(late.body, /state_invalid/);
  });

  test('a browser that never sends the binding cookie fails after one relay, not in a loop', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const form = await serverForm(browser);
    const relay = await crossSitePost(form);
    const again = formOf(await relay.text());
    const cookieless = await new TestBrowser().exchange(
      'POST',
      `${gw.url}${again.action}`,
      again.fields,
    );
    assert.equal(cookieless.status, 400);
    assert.match(await cookieless.text(), /state_invalid/);
  });

  test('a post to an entry that expects its callback in the query is refused', async () => {
    const response = await gw
      .browser()
      .exchange('POST', `${gw.url}/_sso/callback/example-standard`, { code: 'c', state: 's' });
    assert.equal(response.status, 405);
    assert.match(await response.text(), /callback_post_refused/);
  });

  test('a body that is not a form, or too large, is refused with its own code', async () => {
    const asJson = await fetch(`${gw.url}/_sso/callback/posted`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/html' },
      body: JSON.stringify({ code: 'c', state: 's' }),
    });
    assert.equal(asJson.status, 400);
    assert.match(await asJson.text(), /callback_body_invalid/);
    const multipart = new FormData();
    multipart.set('code', 'c');
    const asMultipart = await fetch(`${gw.url}/_sso/callback/posted`, {
      method: 'POST',
      body: multipart,
    });
    assert.equal(asMultipart.status, 400);
    assert.match(await asMultipart.text(), /callback_body_invalid/);
    const tooLarge = await gw.browser().exchange('POST', `${gw.url}/_sso/callback/posted`, {
      code: 'c',
      state: 's',
      padding: 'x'.repeat(17 * 1024),
    });
    assert.equal(tooLarge.status, 400);
    assert.match(await tooLarge.text(), /callback_body_invalid/);
  });
});

/**
 * Under application hosts, a sign-in begun on one ends there: the relayed
 * post's redirects go through the handoff to that host, and browsers apply
 * CSP form-action to them (application-origins.ts). The relay page allows
 * every listed host, or Chromium stops the redirect (saml-hosts-browser.test.ts
 * shows it with a real identity provider).
 */
describe('the relay page under application hosts', () => {
  let gw: TestGateway;
  let port = 0;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ standard }) => [{ ...standard, id: 'posted', responseMode: 'form_post' }],
      envOfPort: (gatewayPort) => {
        port = gatewayPort;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.corp.test:${port}`,
          SSOGATE_UPSTREAM: `wiki.corp.test:${port}=http://127.0.0.1:9`,
          SSOGATE_FORWARD_AUTH_HOSTS: `*.apps.test:${port}`,
        };
      },
    });
  });
  after(async () => gw.close());

  test("lets the relayed post's redirects reach every application host", async () => {
    const relay = await gw.app.inject({
      method: 'POST',
      url: '/_sso/callback/posted',
      headers: {
        host: `sso.corp.test:${port}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'code=c&state=s',
    });
    assert.equal(relay.statusCode, 200, relay.body);
    assert.match(
      String(relay.headers['content-security-policy']),
      new RegExp(
        `form-action 'self' http://wiki\\.corp\\.test:${port} http://\\*\\.apps\\.test:${port};`,
      ),
    );
  });
});
