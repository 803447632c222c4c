import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { en as consoleEnglish } from '../../../console/src/i18n/en.js';
import { zhCN } from '../../../console/src/i18n/zh-CN.js';
import {
  consoleSkip,
  openConsoleBrowser,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';

/** The console's English texts that are plain strings (functions carry names and values). */
function englishTexts(catalog: object): string[] {
  return Object.values(catalog).flatMap((value: unknown) =>
    // Punctuation alone (the colon) is no English.
    typeof value === 'string'
      ? /[A-Za-z]/.test(value)
        ? [value]
        : []
      : typeof value === 'object' && value !== null
        ? englishTexts(value)
        : [],
  );
}

/** Fails when the page shows any English text of the console's catalog. */
async function assertNoEnglish(page: Page, where: string): Promise<void> {
  // A product's name (Active Directory) is written in English in Chinese too.
  const text = (await page.locator('body').innerText()).replaceAll('Active Directory', '');
  // The trace's step names are single words that URLs and API names hold too (`/_sso/callback/`).
  const stepNames = new Set<string>(Object.values(consoleEnglish.trialSignIn.steps));
  // An acronym alone (LDAP, SAML) is a protocol's name, written so in Chinese too.
  const acronym = /^[A-Z0-9]+$/;
  const shown = englishTexts(consoleEnglish).filter(
    (text) => !stepNames.has(text) && !acronym.test(text),
  );
  for (const english of shown) {
    const escaped = english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.doesNotMatch(
      text,
      new RegExp(`(?<![A-Za-z])${escaped}(?![A-Za-z])`),
      `${where}: ${english}`,
    );
  }
}

/** The relative luminance of a computed `rgb(…)` colour, 0 (black) to 1 (white). */
function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

async function backgroundLuminance(page: Page): Promise<number> {
  return luminance(String(await page.evaluate('getComputedStyle(document.body).backgroundColor')));
}

describe('languages and the dark theme, in headless Chromium', { skip: consoleSkip }, () => {
  let gateway: TestGateway;
  let browser: Browser;
  let page: Page;
  let pageProblems: readonly string[];

  before(async () => {
    gateway = await startTestGateway({ entries: (presets) => [presets.standard] });
    ({ browser, page, pageProblems } = await openConsoleBrowser(gateway));
  });

  after(async () => {
    try {
      await browser.close();
    } finally {
      await gateway.close();
    }
  });

  test('the chooser’s switch turns it to Chinese, and a reload remembers it', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const chooser = await context.newPage();
    await chooser.goto(`${gateway.url}/_sso/login?return_to=%2Fwiki`);
    assert.equal(await chooser.getAttribute('html', 'lang'), 'en');
    await chooser.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await chooser.getByRole('navigation', { name: 'Language' }).getByRole('link').click();
    await chooser.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    assert.equal(chooser.url(), `${gateway.url}/_sso/login?return_to=%2Fwiki`);
    await chooser.reload();
    assert.equal(await chooser.getAttribute('html', 'lang'), 'zh-CN');
    await chooser.getByLabel('用户名').waitFor();
    await context.close();
  });

  test('a browser that asks for Chinese gets it without choosing', async () => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    const chooser = await context.newPage();
    await chooser.goto(`${gateway.url}/_sso/login/no-such-entry`);
    assert.equal(await chooser.getAttribute('html', 'lang'), 'zh-CN');
    await chooser.getByText('此登录方式不存在。请选择其他登录方式。').waitFor();
    await context.close();
  });

  test('the console’s switch turns it to Chinese, with no English text of its catalog left, and a reload remembers it', async () => {
    await signInToConsole(page, gateway.url);
    await page.getByRole('heading', { level: 1, name: 'Single Sign-On' }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '单点登录' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '单点登录' }).waitFor();
    await page.getByRole('rowheader', { name: /Example/ }).waitFor();
    for (const path of ['', '/users', '/audit', '/tokens', '/password']) {
      await page.goto(`${gateway.url}/_sso/admin${path}`);
      await page.locator('main h1').waitFor();
      await assertNoEnglish(page, path);
    }
    assert.match(await page.title(), /ssogate 管理$/);
  });

  test('the entry form in Chinese, new and stored, OAuth2 and extension, has no English text of its catalog left', async () => {
    await page.goto(`${gateway.url}/_sso/admin/entries/example-standard`);
    await page.getByRole('heading', { level: 1, name: /Example/ }).waitFor();
    // The live check has answered: its summary is in place.
    await page.getByText('没有问题：可以保存此登录方式。').waitFor();
    // The example server is plain http: the core's warning, in Chinese.
    await page.getByText(zhCN.entryForm.problemSays.plainHttp).waitFor();
    // The administrator the gateway created is named in Chinese too.
    await page.getByText(`${zhCN.shell.signedInAs} 管理员`).waitFor();
    await assertNoEnglish(page, 'stored entry');
    // The mapping as text, and the extension type, show their own fields.
    await page.getByRole('button', { name: '文本' }).click();
    await page.getByLabel('用户信息解析（文本）').waitFor();
    await assertNoEnglish(page, 'mapping as text');
    await page.goto(`${gateway.url}/_sso/admin/entries/new`);
    await page.getByRole('heading', { level: 1, name: '新建登录方式' }).waitFor();
    await page.getByRole('combobox', { name: '从预设开始' }).waitFor();
    await assertNoEnglish(page, 'new entry');
    // A preset by its Chinese name, which the new entry takes as its own.
    await page.getByRole('combobox', { name: '从预设开始' }).selectOption({ label: '企业微信' });
    assert.equal(await page.getByLabel('名称').first().inputValue(), '企业微信');
    await page.getByRole('link', { name: '如何在企业微信登记应用' }).waitFor();
    await page.goto(`${gateway.url}/_sso/admin/entries/new`);
    await page.getByRole('heading', { level: 1, name: '新建登录方式' }).waitFor();
    await page.getByLabel('扩展服务（用于模板无法描述的服务器）').check();
    await page.getByRole('button', { name: '测试连接' }).waitFor();
    await assertNoEnglish(page, 'extension entry');
  });

  test('the choice made in the console holds on the gateway’s pages, and back', async () => {
    await page.goto(`${gateway.url}/_sso/logout`);
    await page.getByRole('heading', { level: 1, name: '要退出登录吗？' }).waitFor();
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign out?' }).waitFor();
    await page.goto(`${gateway.url}/_sso/admin/tokens`);
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'No API tokens yet' }).waitFor();
  });

  test('the empty list of entries offers to add the first sign-in provider', async () => {
    await page.request.delete(`${gateway.url}/_sso/api/entries/example-standard`, {
      headers: {
        'x-csrf-token':
          (await page.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '',
      },
    });
    await page.goto(`${gateway.url}/_sso/admin`);
    await page
      .getByRole('heading', { level: 2, name: 'Add your first sign-in provider' })
      .waitFor();
    await page.getByRole('link', { name: 'Add a sign-in provider' }).click();
    await page.waitForURL(`${gateway.url}/_sso/admin/entries/new`);
  });

  test('under a dark system setting the pages and the console are dark; under a light one, light', async () => {
    for (const [scheme, dark] of [
      ['dark', true],
      ['light', false],
    ] as const) {
      const context = await browser.newContext({ colorScheme: scheme });
      await context.addCookies(await page.context().cookies());
      const other = await context.newPage();
      for (const path of ['/_sso/login', '/_sso/admin']) {
        await other.goto(`${gateway.url}${path}`);
        await other.locator('h1').first().waitFor();
        const light = await backgroundLuminance(other);
        assert.equal(light < 0.1, dark, `${scheme} ${path}: luminance ${light}`);
      }
      await context.close();
    }
  });

  test('the favicon comes without signing in, and nothing was blocked or failed', async () => {
    const response = await page.request.get(`${gateway.url}/favicon.ico`, {
      headers: { cookie: '' },
    });
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['content-type'], 'image/svg+xml');
    assert.deepEqual(pageProblems, []);
  });
});
