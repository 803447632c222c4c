import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { defaultConsoleDir } from '../features/admin-console/console-files.js';
import { bootstrapAdmin } from '../features/local-accounts/bootstrap-admin.js';
import { chromiumSkip, launchChromium } from './chromium.js';
import type { TestGateway, TestGatewayOptions } from './gateway-fixture.js';
import { startTestGateway } from './gateway-fixture.js';

/** The console's browser tests say why they are skipped: no Chromium, or no console build. */
export const consoleSkip: string | false =
  chromiumSkip !== false
    ? chromiumSkip
    : !existsSync(join(defaultConsoleDir(), 'index.html'))
      ? 'the console is not built (npm run build:console; npm test does it first)'
      : false;

/** Where the screenshots of the main pages go (gitignored; docs/console.md). */
const screenshots = join(process.cwd(), 'artifacts', 'screenshots');

export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage });
}

/**
 * Collects a page's script errors and what its Content-Security-Policy
 * blocks; a test asserts the list is empty at the end.
 */
function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => {
    problems.push(error.message);
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  return problems;
}

/** The local administrator the console's browser tests sign in as. */
const adminPassword = 'console-admin-password';

export interface ConsoleBrowser {
  readonly browser: Browser;
  /** The administrator's context, at desktop width. */
  readonly admin: BrowserContext;
  readonly page: Page;
  /** Script errors and what the policy blocked on `page`: a test asserts it stays empty. */
  readonly pageProblems: readonly string[];
}

/**
 * Creates the gateway's local administrator and opens a page for them in
 * headless Chromium; `chromiumArgs` are switches of launchChromium (a
 * `--host-resolver-rules` for an identity provider on a name of its own).
 */
export async function openConsoleBrowser(
  gateway: TestGateway,
  chromiumArgs: readonly string[] = [],
): Promise<ConsoleBrowser> {
  await bootstrapAdmin(gateway.storage.users, adminPassword, Date.now());
  const browser = await launchChromium(chromiumArgs);
  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await admin.newPage();
  // Leaving a form with unsaved changes asks to confirm; these tests mean to leave.
  page.on('dialog', (dialog) => {
    void dialog.accept();
  });
  return { browser, admin, page, pageProblems: watchPageProblems(page) };
}

/** Opens the console, is sent to the local sign-in form, signs in and is sent back. */
export async function signInToConsole(page: Page, gatewayUrl: string): Promise<void> {
  await page.goto(`${gatewayUrl}/_sso/admin`);
  assert.match(page.url(), /\/_sso\/login\?return_to=%2F_sso%2Fadmin$/);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(adminPassword);
  await Promise.all([
    page.waitForURL(`${gatewayUrl}/_sso/admin`),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

export interface ConsoleStory extends ConsoleBrowser {
  readonly gateway: TestGateway;
}

/**
 * Registers the hooks of a console story: before it, a gateway with
 * `options` and an administrator's page in Chromium; after it, both closed.
 * Read the returned function inside the steps.
 */
export function consoleStory(options: TestGatewayOptions = {}): () => ConsoleStory {
  let story: ConsoleStory | undefined;
  before(async () => {
    const gateway = await startTestGateway(options);
    story = { gateway, ...(await openConsoleBrowser(gateway)) };
  });
  after(async () => {
    try {
      await story?.browser.close();
    } finally {
      await story?.gateway.close();
    }
  });
  return () => {
    if (story === undefined) throw new Error('the console story has not started');
    return story;
  };
}
