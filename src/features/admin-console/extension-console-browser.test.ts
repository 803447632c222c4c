import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type {
  AcmeServer,
  ExampleExtensionModule,
  RunningExtension,
} from '../extension/example-extension.js';
import { loadExampleExtension } from '../extension/example-extension.js';
import {
  consoleSkip,
  openConsoleBrowser,
  screenshot,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';

const extensionSecret = 'extension-console-secret-0123456789';

/**
 * An entry of type extension written in the console, end to end in headless
 * Chromium, against the example extension (examples/extension-xml) in front
 * of the emulated Acme server: "Test connection" names a secret that differs
 * on the two sides by its code, then succeeds; once saved, the secret is
 * write-only and the check uses the stored one; then a fresh browser signs in
 * through the entry.
 */
describe('an extension entry in the console, in headless Chromium', { skip: consoleSkip }, () => {
  const step = storySteps();
  let example: ExampleExtensionModule;
  let acme: AcmeServer;
  let extension: RunningExtension;
  let gateway: TestGateway;
  let browser: Browser;
  let page: Page;
  let pageProblems: readonly string[];

  before(async () => {
    example = await loadExampleExtension();
    acme = await example.startAcmeServer();
    extension = await example.startExtension({ secret: extensionSecret });
    gateway = await startTestGateway();
    // A script error or a resource the policy blocks fails the last test.
    ({ browser, page, pageProblems } = await openConsoleBrowser(gateway));
  });

  after(async () => {
    try {
      await browser.close();
    } finally {
      await gateway.close();
      await extension.close();
      await acme.close();
    }
  });

  /** The live region beside "Test connection". */
  const checkStatus = () =>
    page.getByRole('group', { name: 'Extension service', exact: true }).getByRole('status');

  /**
   * Clicks "Test connection" and waits for an answer that matches; when none
   * comes, the failure quotes what the status and the button showed instead.
   */
  const testConnection = async (expected: RegExp): Promise<void> => {
    await page.getByRole('button', { name: 'Test connection' }).click();
    try {
      await checkStatus().getByText(expected).waitFor();
    } catch (error) {
      const shown = await checkStatus()
        .innerText({ timeout: 1000 })
        .catch(() => '(no status region)');
      const button = await page
        .locator('.inline-actions button')
        .first()
        .innerText({ timeout: 1000 })
        .catch(() => '(no button)');
      await screenshot(page, 'extension-check-unexpected');
      throw new Error(
        `"Test connection" showed ${JSON.stringify(shown)} (button: ${JSON.stringify(button)}), not ${String(expected)}`,
        { cause: error },
      );
    }
  };

  step('an administrator signs in locally and opens a new entry of type extension', async () => {
    await signInToConsole(page, gateway.url);
    await page.getByRole('link', { name: 'New entry' }).click();
    await page.getByRole('heading', { level: 1, name: 'New entry' }).waitFor();
    await page.getByLabel('Extension service (for servers the templates cannot describe)').check();
    await page.getByLabel('Extension service URL').waitFor();
    // The OAuth2 templates are gone with the type.
    assert.equal(await page.getByLabel('Authorization URL (required)').count(), 0);
  });

  step(
    '"Test connection" shows a wrong secret by its code, then the right one succeeds',
    async () => {
      await page.getByLabel('Name (required)').fill('Acme (through an extension)');
      await page.getByLabel('Id (required)').fill('acme');
      await page.getByLabel('Enabled: users can sign in with it').check();
      await page.getByLabel('App id').fill(example.defaultAcmeClient.clientId);
      await page.getByLabel('App secret').fill(example.defaultAcmeClient.secret);
      await page.getByLabel('Extension service URL').fill(extension.url);
      await page.getByLabel('Settings', { exact: true }).fill(`serverUrl = ${acme.url}`);

      const secretInput = page.getByLabel('Shared secret');
      await secretInput.fill('not-the-extension-secret-0123456789');
      await testConnection(/\[extension_bad_signature\]$/);
      await checkStatus().locator('p.status-error').waitFor();
      // The answer never repeats the secret it was signed with.
      assert.doesNotMatch(await checkStatus().innerText(), /not-the-extension-secret/);

      await secretInput.fill(extensionSecret);
      await testConnection(/^The extension service answered in \d+ ms\.$/);
      await checkStatus().locator('p.status-success').waitFor();
      await page.locator('.validation').getByText('No problems').waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, 'extension-entry-form');
    },
  );

  step(
    'saved, listed, and re-opened: the secret is set, and the check uses the stored one',
    async () => {
      await page.getByRole('button', { name: 'Create entry' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme (through an extension)' }).waitFor();
      await page.getByText('Acme (through an extension) is saved.').waitFor();

      await page.getByRole('link', { name: 'Single Sign-On' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
      await page.getByRole('rowheader', { name: 'Acme (through an extension)' }).waitFor();
      await page.getByRole('link', { name: 'Acme (through an extension)' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme (through an extension)' }).waitFor();

      // Write-only: shown as set, the value nowhere in the page.
      await page.getByRole('group', { name: 'Shared secret' }).getByText('set').waitFor();
      assert.equal(await page.getByLabel('Extension service URL').inputValue(), extension.url);
      assert.equal(
        await page.getByLabel('Settings', { exact: true }).inputValue(),
        `serverUrl = ${acme.url}`,
      );
      const html = await page.content();
      assert.doesNotMatch(html, new RegExp(extensionSecret));
      assert.doesNotMatch(html, new RegExp(example.defaultAcmeClient.secret));

      await testConnection(/^The extension service answered in \d+ ms\.$/);

      // The stored secret is never sent to an origin typed in afterwards.
      const elsewhere = new URL(extension.url);
      elsewhere.port = String(Number(elsewhere.port) === 1 ? 2 : 1);
      await page.getByLabel('Extension service URL').fill(elsewhere.origin);
      await testConnection(
        /extensionSecret: must be given to test another origin.*\[request_invalid\]/,
      );
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
    },
  );

  step('a fresh browser signs in through the entry at the Acme server', async () => {
    const fresh = await browser.newContext();
    try {
      const user = await fresh.newPage();
      await user.goto(`${gateway.url}/_sso/login/acme?return_to=%2Freports`);
      assert.ok(user.url().startsWith(`${acme.url}/`), user.url());
      await user.getByLabel('User').fill('alice');
      await user.getByLabel('Password').fill('alice-password');
      await Promise.all([
        user.waitForURL(`${gateway.url}/reports`),
        user.getByRole('button').click(),
      ]);
      const me = await user.request.get(`${gateway.url}/_sso/me`, {
        headers: { accept: 'application/json' },
      });
      assert.equal(me.status(), 200);
      const body = (await me.json()) as { userId: string; entryId: string };
      assert.equal(body.userId, 'alice');
      assert.equal(body.entryId, 'acme');
    } finally {
      await fresh.close();
    }
  });

  step('no script error and nothing blocked by the Content-Security-Policy on the way', () => {
    assert.deepEqual(pageProblems, []);
  });
});
