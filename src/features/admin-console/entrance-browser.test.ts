import { describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  consoleSkip,
  consoleStory,
  screenshot,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import { storySteps } from '../../test-support/story-steps.js';
import { waitUntil } from '../../test-support/wait-until.js';

/**
 * The way into a new entry (docs/console.md#presets): a preset opens ready,
 * with an id of its own, the callback URL to register and no problem
 * before anything is touched; the hints give only what the core accepts,
 * and a refusal names the field it is about.
 */
describe('the entry form’s entrance, in headless Chromium', { skip: consoleSkip }, () => {
  const step = storySteps();
  // An entry holds the id `github` already: the preset's suggestion must avoid it.
  const story = consoleStory({
    entries: (presets) => [{ ...presets.standard, id: 'github', name: 'Older GitHub' }],
  });

  step('a preset opens ready: its own id, the callback URL, no problem shown', async () => {
    const { page, gateway } = story();
    await signInToConsole(page, gateway.url);
    await page.getByRole('link', { name: 'New entry' }).click();
    await page.locator('#start-from').selectOption('github');
    const id = page.getByLabel('Id (required)');
    await waitUntil(async () => (await id.inputValue()) !== '', {
      message: 'the suggested id',
      timeoutMs: 30_000,
      intervalMs: 50,
    });
    assert.equal(await id.inputValue(), 'github-2');
    await page
      .locator('.preset-callback')
      .getByText(`${gateway.url}/_sso/callback/github-2`)
      .waitFor();
    assert.doesNotMatch(await page.locator('.preset-register').innerText(), /Choose the entry id/);
    // The core's answer has come: it finds nothing to say about what was not touched.
    const summary = page.locator('section.validation');
    await summary.getByText(/No problems|problems? to fix/).waitFor();
    assert.doesNotMatch(await summary.innerText(), /problems? to fix/);
    assert.equal(await page.locator('[aria-invalid="true"]').count(), 0);
    await screenshot(page, 'entry-form-preset-ready', false);
  });

  step('a header hint offers what the call accepts; a refusal names the header', async () => {
    const { page } = story();
    const headers = page.locator('#field-tokenRequest-headers');
    const hint = await headers.locator('.hint').innerText();
    assert.doesNotMatch(hint, /access_token/);
    assert.match(hint, /X-Appid: \$\{appid\}/);
    await headers.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Token call header 1', { exact: true }).fill('X-Token');
    await page.getByLabel('Token call header value 1').fill('Bearer ${access_token}');
    const summary = page.locator('section.validation');
    await summary.getByText(/is not allowed in Token call headers, row 1\./).waitFor();
    const said = await summary.innerText();
    assert.match(said, /Token call headers, row 1 \(column 8\)/);
    assert.doesNotMatch(said, /Token URL/);
    assert.equal(
      await page.getByLabel('Token call header value 1').getAttribute('aria-invalid'),
      'true',
    );
    await headers.getByRole('button', { name: 'Remove token call header 1' }).click();
    await summary.getByText(/No problems/).waitFor();
  });

  step('in Chinese, a validation problem and an audit detail have no English words', async () => {
    const { page, gateway } = story();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '新建登录方式' }).waitFor();
    const authorizeUrl = page.locator('#field-authorizeUrl');
    const right = await authorizeUrl.inputValue();
    await authorizeUrl.fill(`${right}&code=\${code}`);
    const summary = page.locator('section.validation');
    await summary.getByText(/授权 URL中不能使用 \$\{code\}/).waitFor();
    const problem = await summary.locator('li').first().innerText();
    assert.match(problem, /template_placeholder_not_allowed/);
    // Codes, placeholders, numbers and URL words aside, nothing is English.
    const words = (text: string) =>
      text
        .replace(/\$\{[a-z_]+\}|[a-z]+(_[a-z]+)+|\bURL\b|\bOAuth2?\b/g, '')
        .match(/[A-Za-z]{2,}/g) ?? [];
    assert.deepEqual(words(problem), [], problem);
    await authorizeUrl.fill(right);
    await page.locator('#field-appid').fill('an-app');
    await page.locator('#field-appsecret').fill('a-secret');
    await summary.getByText(/没有问题/).waitFor();
    await page.getByRole('button', { name: '创建登录方式' }).click();
    await page.waitForURL(`${gateway.url}/_sso/admin/entries/github-2`);
    await page.goto(`${gateway.url}/_sso/admin/audit`);
    const detail = page.locator('.event-detail').first();
    await detail.getByText('已创建').waitFor();
    const said = await detail.innerText();
    assert.deepEqual(words(said.replace(/an-app|github-2|GitHub/g, '')), [], said);
  });

  step('no script error and nothing the policy blocked', () => {
    assert.deepEqual(story().pageProblems, []);
  });
});
