import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  consoleSkip,
  openConsoleBrowser,
  screenshot,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { cookieNames } from '../../foundation/web/index.js';
import type { RunningSlapd } from '../ldap-directory/test-support/slapd.js';
import {
  directoryUsers,
  serviceDn,
  servicePassword,
  slapdSkip,
  startSlapd,
  suffix,
} from '../ldap-directory/test-support/slapd.js';

/**
 * An administrator makes a GitHub entry from its preset, pointed at the
 * example server's GitHub emulation, with a wrong user-info expression; the
 * test sign-in's trace shows why it fails and what the answer holds; mended,
 * the test succeeds. Nobody is signed in (the callback sets no session
 * cookie; the browser keeps the administrator's), no user and no entry are
 * written.
 */
describe('test sign-in in the console, in headless Chromium', { skip: consoleSkip }, () => {
  let gateway: TestGateway;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  let pageProblems: readonly string[];
  let sessionName: string;

  before(async () => {
    gateway = await startTestGateway({ usernames: ['alice'] });
    sessionName = cookieNames(gateway.gateway.config.secureCookies).session;
    ({ browser, admin, page, pageProblems } = await openConsoleBrowser(gateway));
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
  });

  after(async () => {
    try {
      await browser.close();
    } finally {
      await gateway.close();
    }
  });

  /** The user id alice maps to at the GitHub emulation, read from the trace. */
  let aliceId: string | undefined;

  /** The value of the gateway's session cookie in the administrator's browser. */
  async function sessionCookie(): Promise<string | undefined> {
    const cookies = await admin.cookies(gateway.url);
    return cookies.find((cookie) => cookie.name === sessionName)?.value;
  }

  /**
   * Runs a test sign-in from the form; the provider's window signs alice in
   * there. The popup shares the console's browser context, so the session
   * cookie there is the administrator's: the callback must leave it as it
   * was, and set none of its own.
   */
  async function runTrialSignIn(): Promise<void> {
    const session = await sessionCookie();
    assert.ok(session !== undefined, 'the administrator is signed in to the console');
    const callback = admin.waitForEvent('response', {
      predicate: (response) => new URL(response.url()).pathname === '/_sso/callback/hub',
    });
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Test sign-in', exact: true }).click(),
    ]);
    const login = popup.getByLabel('Username');
    const finished = popup.getByRole('heading', { name: 'Test sign-in finished' });
    await Promise.race([login.waitFor(), finished.waitFor()]);
    if (await login.isVisible()) {
      await login.fill('alice');
      await popup.getByLabel('Password').fill('alice-password');
      await popup.getByRole('button').click();
    }
    await finished.waitFor();
    assert.match(await popup.innerText('body'), /Nobody was signed in/);
    const answer = await callback;
    assert.equal(answer.status(), 200);
    const setCookies = (await answer.headerValues('set-cookie')).flatMap((value) =>
      value.split('\n'),
    );
    assert.deepEqual(
      setCookies.filter((cookie) => cookie.startsWith(`${sessionName}=`)),
      [],
    );
    assert.equal(await sessionCookie(), session);
    await popup.close();
  }

  test('a wrong expression shows in the trace, is mended and the test passes', async () => {
    await signInToConsole(page, gateway.url);
    await page.getByRole('link', { name: 'New entry' }).click();
    await page.locator('#start-from').selectOption('github');
    await page.locator('#preset-webBase').fill(`${gateway.example.url}/github`);
    await page.locator('#preset-apiBase').fill(`${gateway.example.url}/github/api`);
    await page.getByLabel('Id (required)').fill('hub');
    assert.equal(await page.getByLabel('Name (required)').inputValue(), 'GitHub');
    // Before the credentials: the test names them by their labels and opens no window.
    let opened = 0;
    const countPopups = () => {
      opened += 1;
    };
    page.on('popup', countPopups);
    const panel = page.locator('section[aria-labelledby="test-sign-in-heading"]');
    await page.getByRole('button', { name: 'Test sign-in', exact: true }).click();
    await panel
      .getByText('Fill in App id, App secret first: the test sign-in calls the provider with them.')
      .waitFor();
    page.off('popup', countPopups);
    assert.equal(opened, 0, 'no window opened');
    // A long callback URL wraps inside its card at 1280 px rather than overflow it.
    await page.getByLabel('Id (required)').fill('github-enterprise-server-of-the-corporation');
    for (const url of [page.locator('#callback-url'), page.locator('.preset-callback')]) {
      const inner = await url.boundingBox();
      const card = await url
        .locator('xpath=ancestor::*[contains(concat(" ", @class, " "), " section ")][1]')
        .boundingBox();
      assert.ok(inner !== null && card !== null);
      assert.ok(inner.x + inner.width <= card.x + card.width, 'the callback URL stays in its card');
    }
    await screenshot(page, 'callback-url-1280');
    await page.getByLabel('Id (required)').fill('hub');
    await page.getByLabel('App id').fill('demo-app');
    await page.getByLabel('App secret').fill('demo-secret');
    // What to register at the provider: the callback URL and the scopes.
    await page.locator('.preset-callback').getByText(`${gateway.url}/_sso/callback/hub`).waitFor();
    await page.getByText('read:user user:email').waitFor();

    const mapping = page.getByLabel('User-info parsing (text)');
    const right = await mapping.inputValue();
    assert.match(right, /userId = JSON_GET\(\$response, 'id'\)/);
    await mapping.fill(
      right.replace("JSON_GET($response, 'id')", "JSON_GET($response, 'user_id')"),
    );

    await runTrialSignIn();
    await panel.getByText(/The sign-in would fail: userinfo_parse_failed/).waitFor();
    // The user could not be read: the step links to the parsing, not to the URL.
    await panel.locator('a.field-link[href="#field-userInfoParse"]').waitFor();
    assert.equal(await panel.locator('a.field-link[href="#field-userInfoUrl"]').count(), 0);
    const failed = await panel.innerText();
    assert.match(failed, /^callback: ok$/m);
    assert.match(failed, /^token: ok$/m);
    assert.match(failed, /^user info: failed$/m);
    assert.match(failed, /POST http:\/\/127\.0\.0\.1:\d+\/github\/login\/oauth\/access_token/);
    // The answer shows where the id is; the token and the secret are masked.
    assert.match(failed, /"id":\d+/);
    assert.match(failed, /userId = JSON_GET\(\$response, 'user_id'\)/);
    assert.doesNotMatch(failed, /demo-secret/);
    await screenshot(page, 'test-sign-in-failed');

    await mapping.fill(right);
    await runTrialSignIn();
    await panel.getByText('The sign-in would succeed.').waitFor();
    const passed = await panel.innerText();
    assert.match(passed, /Provisioning would: create/);
    aliceId = /"userId":"([^"]+)"/.exec(passed)?.[1];
    assert.match(passed, /"userName":"Alice/);

    await panel.getByRole('button', { name: 'Copy as text' }).click();
    await panel.getByText('Copied.').waitFor();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    assert.match(copied, /^Test sign-in \S+ with entry hub \(unsaved draft\)/);
    assert.match(copied, /Outcome: success/);
    assert.doesNotMatch(copied, /demo-secret/);

    // Through the admin API: no user but the administrator, no entry, no sign-in.
    const answers = await page.evaluate(async () => {
      const read = async (path: string) => {
        const response = await fetch(`/_sso/api${path}`, {
          headers: { accept: 'application/json' },
        });
        return { status: response.status, body: (await response.json()) as unknown };
      };
      return {
        users: await read('/users'),
        entry: await read('/entries/hub'),
        audit: await read('/audit?kind=sign_in'),
        tests: await read('/audit?kind=test_sign_in'),
      };
    });
    const users = answers.users.body as { users: { userId: string }[] };
    assert.deepEqual(
      users.users.map((user) => user.userId),
      ['admin'],
    );
    assert.equal(answers.entry.status, 404);
    const signIns = answers.audit.body as { events: { userId: string | null }[] };
    assert.ok(signIns.events.every((event) => event.userId !== 'alice'));
    const tests = answers.tests.body as { events: { outcome: string }[] };
    assert.deepEqual(
      tests.events.map((event) => event.outcome),
      ['success', 'failure'],
    );
    assert.deepEqual(pageProblems, []);
  });

  test('a saved entry tests as itself; a conflict points to the two settings', async () => {
    assert.ok(aliceId !== undefined, 'the passing trace named the mapped user id');
    await page.getByRole('button', { name: 'Create entry' }).click();
    await page.waitForURL(`${gateway.url}/_sso/admin/entries/hub`);
    // The user id is a local account's already: the entry would hand it over.
    await gateway.storage.users.insertIfAbsent(
      { userId: aliceId, sourceEntryId: null },
      Date.now(),
    );

    await runTrialSignIn();
    const panel = page.locator('section[aria-labelledby="test-sign-in-heading"]');
    await panel.getByText(/The sign-in would fail: account_conflict/).waitFor();
    // The list numbers the steps; the heading does not number them again.
    assert.deepEqual((await panel.locator('.trace-steps > li > h3').allInnerTexts()).slice(0, 2), [
      'callback: ok',
      'token: ok',
    ]);
    const conflict = panel.locator('.trace-conflict');
    await conflict.getByRole('link', { name: 'Users of this entry only' }).click();
    assert.equal(
      await page.evaluate('document.activeElement?.id'),
      'field-provisioning-userIdScope',
    );
    await conflict.getByRole('link', { name: 'Sign in users that exist already' }).click();
    assert.equal(
      await page.evaluate('document.activeElement?.id'),
      'field-provisioning-adoptExistingUsers',
    );

    await panel.getByRole('button', { name: 'Copy as text' }).click();
    await panel.getByText('Copied.').waitFor();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    assert.match(copied, /^Test sign-in \S+ with entry hub\n/);
    const tests = await page.evaluate(async () => {
      const response = await fetch('/_sso/api/audit?kind=test_sign_in', {
        headers: { accept: 'application/json' },
      });
      return (await response.json()) as { events: { detail: Record<string, unknown> | null }[] };
    });
    assert.equal(tests.events[0]?.detail?.draft, false);
    assert.deepEqual(pageProblems, []);
  });

  test('a provider page that never loads is reported after a while and can be cancelled; a closed window is reported', async () => {
    // Accepts the connection and never answers: the provider's page never loads.
    const held: Socket[] = [];
    const silent = createServer((socket) => {
      held.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    assert.ok(address !== null && typeof address === 'object');
    try {
      // The panel's minute, shortened for this browser (trial-sign-in-panel.tsx).
      await page.evaluate(() => {
        localStorage.setItem('ssogate.testSignIn.quietAfterMs', '1000');
      });
      await page.goto(`${gateway.url}/_sso/admin/entries`);
      await page.getByRole('link', { name: 'New entry' }).click();
      await page.locator('#start-from').selectOption('github');
      const silentUrl = `http://127.0.0.1:${address.port}/github`;
      await page.locator('#preset-webBase').fill(silentUrl);
      await page.locator('#preset-apiBase').fill(`${silentUrl}/api`);
      await page.getByLabel('Id (required)').fill('silent');
      await page.getByLabel('App id').fill('demo-app');
      await page.getByLabel('App secret').fill('demo-secret');
      const panel = page.locator('section[aria-labelledby="test-sign-in-heading"]');
      const start = panel.getByRole('button', { name: 'Test sign-in', exact: true });

      const [popup] = await Promise.all([page.waitForEvent('popup'), start.click()]);
      await panel
        .getByText("Nothing has come back from the provider's window yet.", { exact: false })
        .waitFor({ timeout: 10_000 });
      await screenshot(page, 'test-sign-in-nothing-back');
      await Promise.all([
        popup.waitForEvent('close'),
        panel.getByRole('button', { name: 'Cancel' }).click(),
      ]);
      assert.equal(popup.isClosed(), true);
      // Back as before the test: no message, the button ready.
      assert.equal((await panel.locator('div.trace-result').innerText()).trim(), '');
      assert.equal(await start.isEnabled(), true);
      // Nor does the cancelled test come back: the panel stops asking for its trace.
      await page.waitForTimeout(1500);
      assert.equal((await panel.locator('div.trace-result').innerText()).trim(), '');

      const [again] = await Promise.all([page.waitForEvent('popup'), start.click()]);
      await again.close();
      await panel
        .getByText("The provider's window was closed before the provider sent it back here", {
          exact: false,
        })
        .waitFor({ timeout: 10_000 });
      assert.equal(await panel.getByRole('button', { name: 'Cancel' }).count(), 0);
      assert.deepEqual(pageProblems, []);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => {
        silent.close(() => {
          resolve();
        });
      });
    }
  });
});

/**
 * A stored LDAP entry tested from its form: the window opens the gateway's
 * own password form, marked as a test; the password typed there is checked
 * by slapd, the trace lists the binds and the search, and nobody is signed in.
 */
describe(
  'an LDAP test sign-in in the console, in headless Chromium',
  {
    skip: consoleSkip === false ? slapdSkip : consoleSkip,
  },
  () => {
    let gateway: TestGateway;
    let slapd: RunningSlapd;
    let browser: Browser;
    let admin: BrowserContext;
    let page: Page;
    let pageProblems: readonly string[];
    const [alice] = directoryUsers as [(typeof directoryUsers)[number]];

    before(async () => {
      slapd = await startSlapd();
      gateway = await startTestGateway();
      const token = await storedApiToken(gateway, 'ldap-console-trial');
      const created = await fetch(`${gateway.url}/_sso/api/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'ldap',
          id: 'corp',
          name: 'Corporate directory',
          enabled: true,
          appsecret: servicePassword,
          timeoutMs: 2000,
          ldap: {
            url: slapd.url,
            bindDn: serviceDn,
            baseDn: `ou=people,${suffix}`,
            userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))',
            connectTimeoutMs: 1000,
          },
        }),
      });
      assert.equal(created.status, 201, await created.text());
      ({ browser, admin, page, pageProblems } = await openConsoleBrowser(gateway));
    });

    after(async () => {
      try {
        await browser.close();
      } finally {
        await gateway.close();
        await slapd.stop();
      }
    });

    test("the password form says it is a test; the trace shows the directory's steps", async () => {
      await signInToConsole(page, gateway.url);
      await page.goto(`${gateway.url}/_sso/admin/entries/corp`);
      const panel = page.locator('section[aria-labelledby="test-sign-in-heading"]');
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        panel.getByRole('button', { name: 'Test sign-in', exact: true }).click(),
      ]);
      await popup.getByText('A test sign-in: the directory checks the password').waitFor();
      await popup.getByLabel('Username').fill(alice.uid);
      await popup.getByLabel('Password').fill(alice.password);
      await popup.getByRole('button', { name: 'Sign in' }).click();
      await popup.getByRole('heading', { name: 'Test sign-in finished' }).waitFor();
      await popup.close();
      await panel.getByText('The sign-in would succeed.').waitFor();
      const shown = await panel.innerText();
      assert.match(shown, /^service bind: ok$/m);
      assert.match(shown, /^user search: ok$/m);
      assert.match(shown, /uid=alice\)/);
      assert.doesNotMatch(shown, new RegExp(alice.password));
      assert.doesNotMatch(shown, new RegExp(servicePassword));
      const cookies = await admin.cookies(gateway.url);
      assert.equal(await gateway.storage.users.findByUserId(alice.uid), undefined);
      assert.ok(cookies.length > 0);
      assert.deepEqual(pageProblems, []);
    });
  },
);
