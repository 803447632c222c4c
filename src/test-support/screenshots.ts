/**
 * `npm run screenshots`: the sign-in chooser, an error page and the admin
 * console in English and Simplified Chinese, at desktop (1280×800) and
 * phone (390×844) widths, plus the chooser and the console under a dark
 * system setting, written to artifacts/screenshots/ (docs/console.md). A
 * demo gateway in front of the example OAuth2 server, on loopback, in
 * headless Debian Chromium; nothing is downloaded.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { bootstrapAdmin } from '../features/local-accounts/bootstrap-admin.js';
import { launchChromium } from './chromium.js';
import { startTestGateway } from './gateway-fixture.js';

const folder = join(process.cwd(), 'artifacts', 'screenshots');
const password = 'screenshot-admin-password';

const languages = ['en', 'zh-CN'] as const;
const widths = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

type Width = keyof typeof widths;

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/_sso/login?return_to=%2F_sso%2Fadmin`);
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(password);
  await Promise.all([page.waitForURL(`${url}/_sso/admin`), page.locator('form button').click()]);
}

async function shoot(
  browser: Browser,
  url: string,
  language: string,
  width: Width,
  scheme: 'light' | 'dark',
): Promise<string[]> {
  const context = await browser.newContext({
    viewport: widths[width],
    locale: language,
    colorScheme: scheme,
  });
  const page = await context.newPage();
  const suffix = `${language}-${width}${scheme === 'dark' ? '-dark' : ''}`;
  const written: string[] = [];
  const save = async (name: string) => {
    const file = join(folder, `${name}-${suffix}.png`);
    await page.screenshot({ path: file, fullPage: false });
    written.push(file);
  };
  await page.goto(`${url}/_sso/login`);
  await save('chooser');
  if (scheme === 'light') {
    await page.goto(`${url}/_sso/login/retired-entry`);
    await save('error');
  }
  await signIn(page, url);
  await page.locator('table.entries-table').waitFor();
  await save('console');
  await context.close();
  return written;
}

async function main(): Promise<void> {
  await mkdir(folder, { recursive: true });
  const gateway = await startTestGateway({
    usernames: ['alice'],
    entries: (presets) => [
      presets.standard,
      presets.getStyle,
      { ...presets.jsonStyle, enabled: false },
    ],
    env: { SSOGATE_ORGANIZATION_NAME: 'Example Corp · 示例公司' },
  });
  const browser = await launchChromium();
  try {
    await bootstrapAdmin(gateway.storage.users, password, Date.now());
    const written: string[] = [];
    for (const language of languages) {
      for (const width of Object.keys(widths) as Width[]) {
        written.push(...(await shoot(browser, gateway.url, language, width, 'light')));
      }
      written.push(...(await shoot(browser, gateway.url, language, 'desktop', 'dark')));
    }
    for (const file of written) console.log(file);
  } finally {
    await browser.close();
    await gateway.close();
  }
}

await main();
