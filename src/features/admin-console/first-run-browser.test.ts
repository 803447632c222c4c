import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ExampleServer } from '../../example-server/index.js';
import { defaultUsers, exampleEntries, startExampleServer } from '../../example-server/index.js';
import type { GatewayProcess } from '../../multi-instance/test-support/gateway-process.js';
import { startGatewayProcess } from '../../multi-instance/test-support/gateway-process.js';
import { launchChromium } from '../../test-support/chromium.js';
import { consoleSkip } from '../../test-support/console-in-chromium.js';
import { freePort } from '../../test-support/free-port.js';
import type { TestBackend } from '../../test-support/test-backend.js';
import { testBackend } from '../../test-support/test-backend.js';
import { storySteps } from '../../test-support/story-steps.js';
import { waitUntil } from '../../test-support/wait-until.js';

/**
 * A newcomer's first hour: the gateway started as an operator starts it, on
 * an empty data folder; the console opened at the address it prints, with
 * the password it prints; a first entry written through the form from the
 * example server's GitHub-style sample (a form POST for the token, the user
 * read with a Bearer header, a numeric id), with a wrong app secret; the
 * user's failed sign-in found in Audit by the reference id of their error
 * page alone; with the right secret the same user signs in; then the
 * administrator changes their password.
 */
/** The user who signs in at the example server. */
const someone = defaultUsers[0] ?? assert.fail('the example server has a user');

describe('a first run, in headless Chromium', { skip: consoleSkip }, () => {
  const step = storySteps();
  let dataDir: string;
  let backend: TestBackend;
  let example: ExampleServer;
  let gateway: GatewayProcess;
  let browser: Browser;
  let page: Page;
  let printed: { password: string; console: string };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ssogate-first-run-'));
    backend = await testBackend();
    example = await startExampleServer({ host: '127.0.0.1' });
    const port = await freePort();
    gateway = await startGatewayProcess(port, {
      ...backend.env,
      SSOGATE_DATA_DIR: dataDir,
      SSOGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
      SSOGATE_LOG_LEVEL: 'warn',
    });
    const output = gateway.output.join('');
    const password = /with the password: (\S+)/.exec(output)?.[1];
    const consoleAddress = /Admin console: (\S+)/.exec(output)?.[1];
    assert.ok(password !== undefined && consoleAddress !== undefined, output);
    printed = { password, console: consoleAddress };
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  /** A user's sign-in: the chooser, Example, the example server's own form, then back. */
  async function signInThroughExample(context: BrowserContext): Promise<Page> {
    const user = await context.newPage();
    await user.goto(`${gateway.url}/_sso/login`);
    await user.getByRole('link', { name: 'Example' }).click();
    await user.getByLabel('Username').fill(someone.username);
    await user.getByLabel('Password').fill(someone.password);
    await user.getByRole('button').click();
    return user;
  }

  after(async () => {
    await browser.close();
    await gateway.stop();
    await example.close();
    await backend.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  step('the printed address and password open the console', async () => {
    await page.goto(printed.console);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(printed.password);
    await Promise.all([
      page.waitForURL(printed.console),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
  });

  step('the first entry, through the form, from the GitHub-style sample', async () => {
    const sample = exampleEntries(example.url).github;
    const text = (field: string) => String(sample[field]);
    await page.getByRole('link', { name: 'New entry' }).click();
    await page.getByRole('heading', { level: 1, name: 'New entry' }).waitFor();
    // Nothing reached yet: no "required" shouts at the newcomer.
    assert.equal(await page.locator('.field-problems').count(), 0);

    await page.getByLabel('Name (required)').fill('Example');
    assert.equal(await page.getByLabel('Id (required)').inputValue(), 'example');
    assert.equal(
      await page.locator('#callback-url').innerText(),
      `${gateway.url}/_sso/callback/example`,
    );
    await page.getByLabel('Enabled: users can sign in with it').check();
    await page.getByLabel('App id').fill(text('appid'));
    await page.getByLabel('App secret').fill('not-the-app-secret');
    // A misspelt function gets the known one suggested, in the screen's words.
    // Waited for here: the suggestion adds lines above the fields below, and
    // the form should not move under a click further down.
    await page.getByLabel('Token parsing (required)').fill("JSON_GTE($response, 'access_token')");
    await page
      .locator('#field-tokenParse-problems')
      .getByText(/did you mean JSON_GET\?/)
      .waitFor();
    await page.getByLabel('Authorization URL (required)').fill(text('authorizeUrl'));
    // GitHub's token call: a POST whose parameters go in a form body.
    assert.match(text('tokenUrl'), /^POST /);
    await page.getByLabel('Token URL (required)').fill(text('tokenUrl'));
    await page
      .getByRole('group', { name: 'Token call POST body' })
      .getByLabel('Form (application/x-www-form-urlencoded, standard OAuth2)')
      .check();
    await page.getByLabel('User-info URL (required)').fill(text('userInfoUrl'));
    // The user is read with the token as a Bearer header.
    await page
      .getByRole('group', { name: 'User-info call headers' })
      .getByRole('button', { name: 'Add a header' })
      .click();
    await page.getByLabel('User-info call header 1', { exact: true }).fill('Authorization');
    await page.getByLabel('User-info call header value 1').fill('Bearer ${access_token}');
    // The mapping in the table, a row per attribute: the numeric id is the user id.
    const mapping = sample.userInfoParse as { attribute: string; expression: string }[];
    assert.match(mapping[0]?.expression ?? '', /'id'/);
    for (const [index, { attribute, expression }] of mapping.entries()) {
      await page.getByRole('button', { name: 'Add a mapping' }).click();
      await page.getByLabel(`Attribute ${index + 1}`, { exact: true }).fill(attribute);
      await page.getByLabel(`Expression ${index + 1}`, { exact: true }).fill(expression);
    }
    await page.getByLabel('Token parsing (required)').fill(text('tokenParse'));
    await page.locator('.validation').getByText('No problems').waitFor();
    await page.getByRole('button', { name: 'Create entry' }).click();
    await page.getByText('Example is saved.').waitFor();
  });

  step('a failed sign-in is diagnosed in Audit from its reference id alone', async () => {
    const userContext = await browser.newContext();
    let reference: string;
    try {
      const user = await signInThroughExample(userContext);
      const shown = await user.getByText(/Reference:/).innerText();
      const found = /Reference:\s*([0-9A-Z]{10})/.exec(shown)?.[1];
      assert.ok(found, shown);
      reference = found;
    } finally {
      await userContext.close();
    }

    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await page.getByLabel('Reference id').fill(reference.toLowerCase());
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const rows = page.locator('.audit-table tbody tr');
    await rows.filter({ hasText: reference }).first().waitFor();
    // The unfiltered list holds the row too: wait for the filtered answer.
    await waitUntil(async () => (await rows.count()) === 1, {
      message: 'the filtered audit list',
      timeoutMs: 30_000,
      intervalMs: 50,
    });
    const row = await rows.first().innerText();
    assert.match(row, /Failure/);
    assert.match(row, /token_parse_failed/);
    // And why: the GitHub-style server refuses the wrong secret with a 200
    // whose body holds `error` and `error_description`, not the token.
    assert.match(row, /Step\s+token/);
    assert.match(row, /Cause\s+key_not_found/);
    assert.match(row, /key 'access_token' not found; keys present: error, error_description/);
    // The server's own explanation, kept from the answer it could not be read from.
    assert.match(row, /Server error\s+incorrect_client_credentials/);
    assert.doesNotMatch(row, /not-the-app-secret/);
  });

  step(
    'with the right app secret, the same user signs in through the GitHub-style entry',
    async () => {
      await page.getByRole('link', { name: 'Single Sign-On' }).first().click();
      await page.getByRole('link', { name: 'Example', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Example' }).waitFor();
      await page
        .getByRole('group', { name: 'App secret' })
        .getByRole('button', { name: 'Replace' })
        .click();
      await page
        .getByLabel('App secret')
        .fill(String(exampleEntries(example.url).github.appsecret));
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Example is saved.').waitFor();

      const userContext = await browser.newContext();
      try {
        const user = await signInThroughExample(userContext);
        await user.waitForURL(`${gateway.url}/`);
        const me = await user.request.get(`${gateway.url}/_sso/me`, {
          headers: { accept: 'application/json' },
        });
        assert.equal(me.status(), 200);
        // GitHub's numeric account id became the user id; the name came through the mapping.
        const body = (await me.json()) as { userId: string; userName: string };
        assert.deepEqual([body.userId, body.userName], ['1001', someone.name]);
      } finally {
        await userContext.close();
      }
    },
  );

  step('the administrator changes their password at Your password', async () => {
    await page.getByRole('link', { name: 'Your password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your password' }).waitFor();
    await page.getByLabel('Current password (required)').fill('a wrong guess');
    await page.getByLabel('New password (required)', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password (required)').focus();
    await page.getByText('New password needs at least 12 characters (5 now).').waitFor();

    await page
      .getByLabel('New password (required)', { exact: true })
      .fill('a far better passphrase');
    await page.getByLabel('Repeat the new password (required)').fill('a far better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .locator('#field-password-current-problems')
      .getByText(/not right/)
      .waitFor();

    await page.getByLabel('Current password (required)').fill(printed.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Password changed\. 0 other sessions/).waitFor();
  });
});
