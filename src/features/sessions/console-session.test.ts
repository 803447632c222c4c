import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { bootstrapAdmin } from '../local-accounts/bootstrap-admin.js';
import { csrfTokenFor } from './session-service.js';

/**
 * Under SSOGATE_COOKIE_DOMAIN every host under the domain receives the
 * session cookie; the console and the admin API read the auth host's own
 * console cookie instead (console-session.ts), so the domain's cookie,
 * replayed by an application that saw it, acts as no administrator.
 */
describe("the console's session under a cookie domain", () => {
  let gw: TestGateway;
  let port = 0;
  const browsers: TestBrowser[] = [];
  const at = (host: string, path: string) => `http://${host}.corp.test:${port}${path}`;
  const password = 'console-admin-password';

  before(async () => {
    gw = await startTestGateway({
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.corp.test:${listening}`,
          SSOGATE_COOKIE_DOMAIN: '.corp.test',
          SSOGATE_FORWARD_AUTH_HOSTS: `grafana.corp.test:${listening}`,
        };
      },
    });
    await bootstrapAdmin(gw.storage.users, password, Date.now());
  });
  after(async () => {
    for (const browser of browsers) await browser.close();
    await gw.close();
  });

  function newBrowser(): TestBrowser {
    const browser = new TestBrowser({ connectTo: '127.0.0.1' });
    browsers.push(browser);
    return browser;
  }

  /** The administrator signed in with the local form on the auth host. */
  async function signedInAdmin(): Promise<TestBrowser> {
    const browser = newBrowser();
    const chooser = await browser.open(at('sso', '/_sso/login?return_to=/_sso/me'));
    const csrf = /name="csrf" value="([^"]+)"/.exec(chooser.body)?.[1] ?? '';
    const landed = await browser.submit(at('sso', '/_sso/login/local'), {
      username: 'admin',
      password,
      csrf,
      return_to: '/_sso/me',
    });
    assert.equal(landed.status, 200, landed.body);
    return browser;
  }

  /** GET /_sso/api/users on the auth host with `cookies` alone: the status and the code. */
  async function adminApiWith(cookies: Record<string, string>): Promise<string> {
    const replay = newBrowser();
    for (const [name, value] of Object.entries(cookies))
      replay.setCookie(at('sso', ''), name, value);
    const answer = await replay.open(at('sso', '/_sso/api/users'), { accept: 'application/json' });
    const code = (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code;
    return `${answer.status} ${code ?? ''}`.trim();
  }

  test("the domain's session cookie, replayed at the admin API or the console, is no administrator", async () => {
    const browser = await signedInAdmin();
    const own = browser.cookies(at('sso', '/'));
    const domainCookie = own.get('ssogate_session') ?? '';
    const consoleCookie = own.get('ssogate_console') ?? '';
    assert.ok(domainCookie !== '' && consoleCookie !== '' && domainCookie !== consoleCookie);
    // What an application under the domain sees in its Cookie header.
    assert.equal(await adminApiWith({ ssogate_session: domainCookie }), '401 unauthenticated');
    const page = newBrowser();
    page.setCookie(at('sso', ''), 'ssogate_session', domainCookie);
    const console = await page.open(at('sso', '/_sso/admin'), { maxHops: 0 });
    assert.equal(console.status, 302);
    assert.match(console.headers.get('location') ?? '', /^\/_sso\/login\?/);
    // The auth host's own cookie is the administrator's.
    assert.equal(await adminApiWith({ ssogate_console: consoleCookie }), '200');
    // And the domain's cookie still signs the user in on the application hosts.
    const me = newBrowser();
    me.setCookie(at('grafana', ''), 'ssogate_session', domainCookie);
    const there = await me.open(at('grafana', '/_sso/me'), { accept: 'application/json' });
    assert.equal(there.status, 200);
  });

  test('the console cookie is set host-only, and a sign-out clears both and ends both', async () => {
    const browser = await signedInAdmin();
    const own = browser.cookies(at('sso', '/'));
    const held = { ssogate_console: own.get('ssogate_console') ?? '' };
    const out = await browser.exchange('GET', at('sso', '/_sso/logout'));
    const csrf = /name="csrf" value="([^"]+)"/.exec(await out.text())?.[1] ?? '';
    const signedOut = await browser.exchange('POST', at('sso', '/_sso/logout'), {
      csrf,
      scope: 'here',
    });
    await signedOut.arrayBuffer();
    const cleared = signedOut.headers.getSetCookie();
    assert.ok(
      cleared.some(
        (line) =>
          line.startsWith('ssogate_session=;') &&
          /Max-Age=0/.test(line) &&
          /Domain=corp\.test/i.test(line),
      ),
      cleared.join('\n'),
    );
    assert.ok(
      cleared.some(
        (line) =>
          line.startsWith('ssogate_console=;') && /Max-Age=0/.test(line) && !/Domain=/i.test(line),
      ),
      cleared.join('\n'),
    );
    assert.equal(await adminApiWith(held), '401 unauthenticated');
  });

  test("the console's own sign-out form, with the console session's token, signs out", async () => {
    const browser = await signedInAdmin();
    const held = { ssogate_console: browser.cookies(at('sso', '/')).get('ssogate_console') ?? '' };
    const signedOut = await browser.submit(at('sso', '/_sso/logout'), {
      csrf: csrfTokenFor(held.ssogate_console),
    });
    assert.equal(signedOut.status, 200, signedOut.body);
    assert.equal(await adminApiWith(held), '401 unauthenticated');
  });
});
