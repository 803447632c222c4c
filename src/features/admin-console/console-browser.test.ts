import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { exampleEntries } from '../../example-server/index.js';
import {
  consoleSkip,
  openConsoleBrowser,
  screenshot,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';

/**
 * An administrator's first entry, end to end in headless Chromium: sign in
 * locally, write the entry in the form (the form refuses `${code}` in the
 * authorization URL until it is fixed), try it on pasted samples, make it the
 * default; then a browser that has never seen the gateway is signed in
 * through it without a page of the gateway's own.
 */
describe('the admin console in headless Chromium', { skip: consoleSkip }, () => {
  const step = storySteps();
  let gateway: TestGateway;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  let pageProblems: readonly string[];

  before(async () => {
    // One entry exists already, switched off: the list's switches and order are tried on it.
    gateway = await startTestGateway({
      usernames: ['alice'],
      entries: (presets) => [{ ...presets.jsonStyle, enabled: false }],
    });
    // A script error or a resource the policy blocks fails the last test.
    ({ browser, admin, page, pageProblems } = await openConsoleBrowser(gateway));
  });

  after(async () => {
    try {
      await browser.close();
    } finally {
      await gateway.close();
    }
  });

  step('an administrator signs in locally and lands on the console', async () => {
    await signInToConsole(page, gateway.url);
    await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    assert.match(
      await breadcrumb.innerText(),
      /^System Settings\s*›\s*Security\s*›\s*Single Sign-On$/,
    );
    await page.getByRole('rowheader', { name: 'Example (POST JSON style)' }).waitFor();
  });

  step(
    'creates an entry: the form shows ${code} in the authorization URL as an error',
    async () => {
      const preset = exampleEntries(gateway.example.url).getStyle;
      const text = (field: string) => String(preset[field]);
      await page.getByRole('link', { name: 'New entry' }).click();
      await page.getByRole('heading', { level: 1, name: 'New entry' }).waitFor();

      await page.getByLabel('Name (required)').fill('Example SSO');
      // The id is suggested from the name; the administrator may type another.
      assert.equal(await page.getByLabel('Id (required)').inputValue(), 'example-sso');
      await page.getByLabel('Id (required)').fill('example');
      // The callback URL to register, copied with one click.
      await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
      const callback = page.locator('.callback-url');
      await callback.getByRole('button', { name: 'Copy' }).click();
      await callback.getByRole('status').getByText('Copied.').waitFor();
      assert.equal(
        await page.evaluate<string>('navigator.clipboard.readText()'),
        `${gateway.url}/_sso/callback/example`,
      );
      // A new entry starts disabled: enabling it is a choice.
      const enabled = page.getByLabel('Enabled: users can sign in with it');
      assert.equal(await enabled.isChecked(), false);
      await enabled.check();
      await page.getByLabel('App id').fill(text('appid'));
      await page.getByLabel('App secret').fill(text('appsecret'));
      const authorize = page.getByLabel('Authorization URL (required)');
      await authorize.fill(`${text('authorizeUrl')}&code=\${code}`);
      await page.getByLabel('Token URL (required)').fill(text('tokenUrl'));
      await page.getByLabel('Token parsing (required)').fill(text('tokenParse'));
      await page.getByLabel('User-info URL (required)').fill(text('userInfoUrl'));

      // The core's own check, debounced, with the field and the column.
      const fieldProblem = page.locator('#field-authorizeUrl-problems');
      // In the screen's words: the field's label, not the API's name for it.
      await fieldProblem.getByText('${code} is not allowed in Authorization URL').waitFor();
      assert.match(await fieldProblem.innerText(), /column \d+/);
      assert.equal(await authorize.getAttribute('aria-invalid'), 'true');
      const summary = page.locator('.validation');
      await summary.getByText('1 problem to fix before saving').waitFor();
      // Beside the template: the placeholders the core allows there.
      const allowed = await page.locator('#field-authorizeUrl-hint').innerText();
      assert.match(allowed, /\$\{state\}/);
      assert.doesNotMatch(allowed, /\$\{code\}/);
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, 'entry-form-validation-error', false);

      // A URL template is a text box that wraps a long URL rather than scrolling
      // it sideways; a URL holds no line break, so Enter adds none.
      const long = `${text('authorizeUrl')}&login_hint=${'a'.repeat(300)}`;
      await authorize.fill(long);
      await authorize.press('End');
      await authorize.press('Enter');
      assert.equal(await authorize.inputValue(), long);
      const box = await page.evaluate<{ tag: string; scrollWidth: number; clientWidth: number }>(
        `(() => {
        const box = document.getElementById('field-authorizeUrl');
        return { tag: box.tagName, scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
      })()`,
      );
      assert.equal(box.tag, 'TEXTAREA');
      assert.ok(box.scrollWidth <= box.clientWidth, `scrolls sideways: ${JSON.stringify(box)}`);

      await authorize.fill(text('authorizeUrl'));
      await summary.getByText('No problems').waitFor();
      assert.equal(await fieldProblem.count(), 0);
      await page.getByLabel("Keep this entry's user ids apart from other entries'").check();
      await page.getByRole('button', { name: 'Create entry' }).click();
      await page.getByRole('heading', { level: 1, name: 'Example SSO' }).waitFor();
      await page.getByText('Example SSO is saved.').waitFor();
      const saved = await gateway.storage.entries.get('example');
      assert.equal(saved?.input.provisioning?.userIdScope, 'entry');
      // The secret is write-only: the form shows that one is set, never its value.
      assert.doesNotMatch(await page.content(), new RegExp(text('appsecret')));
    },
  );

  step('the test panel reads pasted samples: the masked token and the user row', async () => {
    // The stored entry is checked as an update: its stored secret counts.
    await page.locator('.validation').getByText('No problems').waitFor();
    await page
      .getByLabel('Sample token response')
      .fill('{"access_token":"CANARY-token-7f3a","expires_in":7200}');
    await page
      .getByLabel('Sample user-info response')
      .fill(
        '{"user":{"userId":"alice","userName":"Alice Example","email":"alice@example.test","title":"Queen"}}',
      );
    await page.getByRole('button', { name: 'Run the test' }).click();
    const result = page.locator('.test-result');
    await result.getByText('The sign-in would succeed.').waitFor();
    const shown = await result.innerText();
    assert.match(shown, /alice@example\.test/);
    assert.match(shown, /Queen/);
    assert.doesNotMatch(shown, /CANARY-token-7f3a/);
    await page.locator('.test-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'entry-test-panel', false);

    // A broken sample names the step and the code.
    await page.getByLabel('Sample token response').fill('access_token=abc');
    await page.getByRole('button', { name: 'Run the test' }).click();
    await result.getByText('Reading the token response failed').waitFor();
    assert.match(await result.innerText(), /response_not_json/);

    // An edit that leaves the secret alone keeps it (the sign-in below needs it).
    await page.getByRole('group', { name: 'App secret' }).getByText('set').waitFor();
    // "Sign-out and limits" holds nothing yet: it is closed.
    await page.locator('#section-limits summary').click();
    await page.getByLabel('Time-out per call (milliseconds)').fill('5000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
    await page.getByText('Example SSO is saved.').waitFor();
  });

  step(
    'opened at an internal address, the form shows the callback URL at the public URL',
    async () => {
      // The public URL is 127.0.0.1; the administrator reaches the same gateway as localhost.
      const internal = gateway.url.replace('127.0.0.1', 'localhost');
      assert.notEqual(internal, gateway.url);
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        await signInToConsole(tab, internal);
        await tab.getByRole('link', { name: 'New entry' }).click();
        await tab.getByLabel('Name (required)').fill('Corp SSO');
        assert.equal(
          await tab.locator('#callback-url').innerText(),
          `${gateway.url}/_sso/callback/corp-sso`,
        );
      } finally {
        await context.close();
      }
    },
  );

  step('makes the entry the default, enables and reorders from the list', async () => {
    await page.getByRole('link', { name: 'Single Sign-On' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
    // The list is loaded again after each change: wait for the order to show.
    const rows = page.locator('.entries-table tbody tr');
    const order = async (...names: string[]) => {
      for (const [index, name] of names.entries()) {
        await rows.nth(index).locator('th').getByText(name, { exact: true }).waitFor();
      }
    };
    await order('Example (POST JSON style)', 'Example SSO');

    await page.getByRole('button', { name: 'Move Example SSO up' }).click();
    await page.getByText('Example SSO moved up.').waitFor();
    await order('Example SSO', 'Example (POST JSON style)');

    const json = page.getByRole('group', { name: 'Actions for Example (POST JSON style)' });
    await json.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Example (POST JSON style) is enabled.').waitFor();

    const example = page.getByRole('group', { name: 'Actions for Example SSO' });
    await example.getByRole('button', { name: 'Make default' }).click();
    await page.getByText('Example SSO is now the default').waitFor();
    await example.getByRole('button', { name: 'Remove default' }).waitFor();
  });

  step('user-info parsing switches between text and table with the same meaning', async () => {
    await page.getByRole('link', { name: 'Example (POST JSON style)' }).click();
    await page.locator('.validation').getByText('No problems').waitFor();
    // Every control has a label, and no two share one (getByLabel finds each).
    const labels = await page.evaluate<{ count: number; problems: string[] }>(`(() => {
      const names = new Map();
      const problems = [];
      for (const control of document.querySelectorAll('main input, main select, main textarea')) {
        if (control.type === 'hidden') continue;
        const name = control.labels.length > 0
          ? [...control.labels].map((label) => label.textContent.trim()).join(' ')
          : control.getAttribute('aria-label');
        if (!name) problems.push('no label: ' + control.outerHTML);
        else if (control.type !== 'radio' && names.has(name)) problems.push('twice: ' + name);
        names.set(name, true);
      }
      return { count: names.size, problems };
    })()`);
    assert.deepEqual(labels.problems, []);
    assert.ok(labels.count > 20, `only ${labels.count} labelled controls`);
    const text = page.getByLabel('User-info parsing (text)');
    assert.match(await text.inputValue(), /^userId = JSON_PATH\(\$response, 'data\.id'\)$/m);

    await page.getByRole('button', { name: 'Table', exact: true }).click();
    assert.equal(await page.getByLabel('Attribute 1', { exact: true }).inputValue(), 'userId');
    assert.equal(
      await page.getByLabel('Expression 1', { exact: true }).inputValue(),
      "JSON_PATH($response, 'data.id')",
    );
    await page.getByLabel('Attribute 2', { exact: true }).fill('colour');
    await page
      .locator('#field-userInfoParse-1-problems')
      .getByText("'colour' is not a user attribute")
      .waitFor();

    // Each row's "required" box: the next stop after its expression, ticked
    // with the space bar, and the text form's own marker both ways.
    const emailRequired = page.getByLabel('Required (attribute 3)', { exact: true });
    assert.equal(await emailRequired.isChecked(), false);
    await page.getByLabel('Expression 3', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.type'), 'checkbox');
    await page.keyboard.press('Space');
    assert.equal(await emailRequired.isChecked(), true);
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    const marked = await text.inputValue();
    assert.match(marked, /^required email = JSON_PATH\(\$response, 'data\.mail'\)$/m);
    assert.match(marked, /^department = /m);
    await text.fill(
      marked.replace(/^required email/m, 'email').replace(/^department/m, 'required department'),
    );
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    assert.equal(await emailRequired.isChecked(), false);
    assert.equal(
      await page.getByLabel('Required (attribute 4)', { exact: true }).isChecked(),
      true,
    );

    await page.getByRole('button', { name: 'Text', exact: true }).click();
    assert.match(await text.inputValue(), /^colour = JSON_PATH\(\$response, 'data\.name'\)$/m);
    await page.locator('.validation').getByText('line 2, column 1').waitFor();
    // Nothing is saved: leave without saving.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
  });

  step("the browser's Back asks before unsaved changes are lost", async () => {
    // A page of its own: the shared one accepts every question.
    const tab = await admin.newPage();
    const asked: string[] = [];
    // Back returns before the page asks: wait for the question, then answer it.
    const backAnswering = async (accept: boolean) => {
      const question = tab.waitForEvent('dialog');
      await tab.goBack();
      const dialog = await question;
      asked.push(dialog.message());
      await (accept ? dialog.accept() : dialog.dismiss());
    };
    try {
      await tab.goto(`${gateway.url}/_sso/admin`);
      await tab.getByRole('link', { name: 'Example SSO' }).click();
      await tab.getByRole('heading', { level: 1, name: 'Example SSO' }).waitFor();
      const entryUrl = tab.url();
      assert.match(entryUrl, /\/_sso\/admin\/entries\/example$/);
      const timeout = tab.getByLabel('Time-out per call (milliseconds)');
      await timeout.fill('7000');

      await backAnswering(false);
      assert.deepEqual(asked, ['This entry has unsaved changes. Leave the page and lose them?']);
      // The page's own address (Playwright's url() trails same-document moves).
      assert.equal(await tab.evaluate('location.href'), entryUrl);
      await tab.getByRole('heading', { level: 1, name: 'Example SSO' }).waitFor();
      assert.equal(await timeout.inputValue(), '7000');

      await backAnswering(true);
      await tab.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
      assert.equal(await tab.evaluate('location.href'), `${gateway.url}/_sso/admin`);
      assert.equal(asked.length, 2);
      // Nothing was saved, and an untouched form lets Back go without a question.
      await tab.goForward();
      await tab.getByRole('heading', { level: 1, name: 'Example SSO' }).waitFor();
      assert.equal(await timeout.inputValue(), '5000');
      await tab.goBack();
      await tab.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
      assert.equal(asked.length, 2);
    } finally {
      await tab.close();
    }
  });

  step(
    'a fresh browser is signed in through the default entry without a gateway page',
    async () => {
      const fresh = await browser.newContext();
      try {
        const user = await fresh.newPage();
        // The user is signed in at their organisation's server already.
        await user.goto(`${gateway.example.url}/login?continue=/`);
        await user.getByLabel('Username').fill('alice');
        await user.getByLabel('Password').fill('alice-password');
        await Promise.all([user.waitForLoadState(), user.getByRole('button').click()]);

        const documents: string[] = [];
        user.on('response', (response) => {
          if (response.request().resourceType() === 'document') {
            documents.push(`${response.status()} ${response.url()}`);
          }
        });
        await user.goto(`${gateway.url}/reports?q=1`);
        assert.equal(user.url(), `${gateway.url}/reports?q=1`);
        await user.getByText('alice', { exact: false }).first().waitFor();
        // Redirects only, then the page asked for: no chooser, no login form.
        assert.ok(
          documents.slice(0, -1).every((line) => /^30[23] /.test(line)),
          documents.join('\n'),
        );
        assert.ok(documents.some((line) => line.includes('/_sso/callback/example')));
      } finally {
        await fresh.close();
      }
    },
  );

  step('the list shows the last successful sign-in of the entry', async () => {
    await page.getByRole('link', { name: 'Single Sign-On' }).first().click();
    await page
      .locator('.entries-table tbody tr')
      .first()
      .locator('td[data-label="Last successful sign-in"]')
      .filter({ hasNotText: '—' })
      .waitFor();
    await screenshot(page, 'entries-list');
  });

  step('users, audit and API tokens', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('rowheader', { name: /alice/ }).waitFor();
    await page.getByText('1–2 of 2').waitFor();
    await screenshot(page, 'users');
    await page.getByLabel('Search users').fill('ali');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1–1 of 1').waitFor();

    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await page.getByLabel('Entry').selectOption('example');
    await page.getByLabel('Outcome').selectOption('success');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('cell', { name: 'Sign-in' }).first().waitFor();
    await screenshot(page, 'audit');

    // A token whose expiry has passed, as a script made it a while ago.
    const day = 86_400_000;
    await gateway.storage.apiTokens.create({
      id: 'a1b2c3d4e5f6',
      name: 'old-export',
      tokenHash: 'not-a-real-hash',
      createdAt: Date.now() - 31 * day,
      expiresAt: Date.now() - day,
    });
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    const tokenRow = (name: string) =>
      page
        .locator('.tokens-table tbody tr')
        .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    const cell = (name: string, label: string) =>
      tokenRow(name).locator(`td[data-label="${label}"]`).innerText();
    assert.equal(await cell('old-export', 'Status'), 'Expired');
    assert.equal(await cell('old-export', 'Owner'), 'No owner (made before owners were recorded)');

    // One that never expires: asked for with the box, not by leaving the days empty.
    await page.getByLabel('New token name').fill('deploy-script');
    await page.getByLabel('Never expires (until revoked)').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByLabel('Secret of deploy-script', { exact: true }).inputValue();
    assert.ok(secret.length >= 20);
    await screenshot(page, 'tokens');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByText(secret).count(), 0);
    assert.equal(await cell('deploy-script', 'Expires'), 'Never');
    // The administrator signed in here owns it.
    assert.equal(await cell('deploy-script', 'Owner'), 'admin');
    await page.getByRole('button', { name: 'Revoke deploy-script' }).click();
    await page.getByText('Token deploy-script revoked').waitFor();

    // One valid for 30 days: sent as expiresAt, listed with its date and as active.
    await page.getByLabel('New token name').fill('nightly-export');
    await page.getByLabel('Valid for (days)').fill('30');
    const asked = Date.now();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Token nightly-export created.').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const stored = (await gateway.storage.apiTokens.list()).find(
      (token) => token.name === 'nightly-export',
    );
    const expiresAt = stored?.expiresAt ?? assert.fail('nightly-export has no expiry');
    assert.ok(Math.abs(expiresAt - (asked + 30 * day)) < 60_000, new Date(expiresAt).toISOString());
    await tokenRow('nightly-export').waitFor();
    const shownDate = new Date(expiresAt).toLocaleDateString('en', { dateStyle: 'medium' });
    assert.match(await cell('nightly-export', 'Expires'), new RegExp(shownDate));
    assert.equal(await cell('nightly-export', 'Status'), 'Active');

    // Nothing given: the default lifetime, 90 days.
    await page.getByLabel('New token name').fill('weekly-report');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Token weekly-report created.').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const byDefault = (await gateway.storage.apiTokens.list()).find(
      (token) => token.name === 'weekly-report',
    );
    const defaultEnd = byDefault?.expiresAt ?? assert.fail('weekly-report has no expiry');
    assert.ok(Math.abs(defaultEnd - (asked + 90 * day)) < 120_000);
  });

  step('at phone width the list reads as cards', async () => {
    const phoneContext = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await admin.storageState(),
    });
    try {
      const phone = await phoneContext.newPage();
      await phone.goto(`${gateway.url}/_sso/admin`);
      await phone.getByRole('link', { name: 'Example SSO' }).waitFor();
      const width = await phone.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 390, `the page scrolls sideways: ${width}px`);
      await screenshot(phone, 'entries-list-phone');
    } finally {
      await phoneContext.close();
    }
  });

  step('no script error and nothing blocked by the Content-Security-Policy on the way', () => {
    assert.deepEqual(pageProblems, []);
  });
});
