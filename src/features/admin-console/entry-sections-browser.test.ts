import { describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  consoleSkip,
  consoleStory,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import { storySteps } from '../../test-support/story-steps.js';

/** Whether each collapsible section of the entry form is open, by its name. */
async function openSections(page: Page): Promise<Record<string, boolean>> {
  return page.evaluate<Record<string, boolean>>(
    "Object.fromEntries([...document.querySelectorAll('details.collapsible')].map((one) => [one.id.replace(/^section-/, ''), one.open]))",
  );
}

/** The id of the element that has the focus. */
async function focused(page: Page): Promise<string> {
  return page.evaluate<string>("document.activeElement?.id ?? ''");
}

/**
 * The entry form's parts most entries leave alone (docs/console.md#an-entry):
 * collapsed on a new entry, open when they hold a value or a problem, never
 * moved by themselves while typing; the tests beside the form, linking to
 * the field they blame.
 */
describe(
  'the entry form’s sections and side panel, in headless Chromium',
  { skip: consoleSkip },
  () => {
    const step = storySteps();
    const story = consoleStory({
      // A stored entry with a time-out: its "Sign-out and limits" is not empty.
      entries: (presets) => [
        { ...presets.standard, id: 'limited', name: 'Limited', timeoutMs: 5000 },
      ],
    });

    step(
      'a new entry shows its rare parts closed, "Start from" once, labelled parameters',
      async () => {
        const { page, gateway } = story();
        await signInToConsole(page, gateway.url);
        await page.getByRole('link', { name: 'New entry' }).click();
        await page.locator('#start-from').waitFor();
        assert.deepEqual(await openSections(page), { oidc: false, shapes: false, limits: false });
        assert.equal(await page.getByText('Start from', { exact: true }).count(), 1);
        await page.locator('#start-from').selectOption('github');
        const site = page.getByLabel('Site', { exact: true });
        assert.equal(await site.inputValue(), 'https://github.com');
        assert.match(
          await page.locator('#preset-webBase-hint').innerText(),
          /GitHub Enterprise Server/,
        );
        assert.doesNotMatch(await page.locator('.preset-chooser').innerText(), /webBase|apiBase/);
        assert.match(await page.locator('.preset-register').innerText(), /App id and App secret/);
        // GitHub's preset sets nothing beyond the basic flow: still closed.
        assert.deepEqual(await openSections(page), { oidc: false, shapes: false, limits: false });
      },
    );

    step('a preset that uses a rare part opens it', async () => {
      const { page } = story();
      await page.locator('#start-from').selectOption('wecom');
      await page.getByLabel('AgentId', { exact: true }).waitFor();
      assert.deepEqual(await openSections(page), { oidc: false, shapes: true, limits: false });
    });

    step('a problem in a closed section is counted on its heading; nothing moves', async () => {
      const { page } = story();
      await page.getByLabel('AgentId', { exact: true }).fill('1000002');
      await page.locator('#field-appid').fill('an-app');
      await page.locator('#field-appsecret').fill('a-secret');
      const limits = page.locator('#section-limits');
      await limits.locator('summary').click();
      await page.locator('#field-timeoutMs').fill('5');
      await limits.locator('summary').click();
      assert.equal((await openSections(page)).limits, false);
      // The core's answer comes after the typing: it is counted on the heading,
      // and the section neither opens nor grows under the pointer.
      const height = async () => (await limits.boundingBox())?.height;
      const before = await height();
      await limits.locator('.section-problems').getByText('1 problem').waitFor();
      assert.equal(await height(), before);
      assert.equal((await openSections(page)).limits, false);
      // The summary's link opens the section and lands on the field.
      await page.locator('section.validation a', { hasText: 'Time-out per call' }).click();
      assert.equal((await openSections(page)).limits, true);
      assert.equal(await focused(page), 'field-timeoutMs');
      await page.locator('#field-timeoutMs').fill('');
      await page.locator('section.validation').getByText('No problems').waitFor();
    });

    step('the tests sit beside the form; a failed test links to the field it blames', async () => {
      const { page } = story();
      const form = await page.locator('form.entry-form').boundingBox();
      const aside = await page.getByRole('complementary', { name: 'Tests' }).boundingBox();
      assert.ok(form !== null && aside !== null);
      assert.ok(aside.x >= form.x + form.width, 'the tests are to the right of the form');
      // Sticky: in view beside whatever part of the form is on screen.
      const inView = async () =>
        page.evaluate<boolean>(
          "(() => { const box = document.querySelector('#test-panel-heading').getBoundingClientRect(); return box.top >= 0 && box.bottom <= window.innerHeight; })()",
        );
      await page.locator('#field-userInfoUrl').scrollIntoViewIfNeeded();
      assert.equal(await inView(), true);
      // WeCom's application token is read first: its answer is broken, and the
      // link opens the closed section that holds the call.
      await page.locator('#section-shapes summary').click();
      assert.equal((await openSections(page)).shapes, false);
      await page.getByLabel('Sample application-token response').fill('not json');
      await page.getByRole('button', { name: 'Run the test' }).click();
      const link = page
        .locator('.test-failure')
        .getByRole('link', { name: 'Go to Application token and calls after user info' });
      await link.click();
      assert.equal((await openSections(page)).shapes, true);
      assert.equal(await focused(page), 'field-shapes-calls');
    });

    step('a stored entry opens the sections that hold a value', async () => {
      const { page, gateway } = story();
      await page.goto(`${gateway.url}/_sso/admin/entries/limited`);
      await page.locator('#field-timeoutMs').waitFor();
      assert.deepEqual(await openSections(page), { oidc: false, shapes: false, limits: true });
      assert.equal(await page.locator('#field-timeoutMs').inputValue(), '5000');
    });

    step(
      'in Chinese, a field’s schema problem is said from its values, its code beside it',
      async () => {
        const { page } = story();
        await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
        await page.locator('#section-limits summary').getByText('4. 退出登录与限制').waitFor();
        await page.locator('#field-timeoutMs').fill('5');
        const problem = page.locator('section.validation li').first();
        await problem.getByText(/不能小于 100/).waitFor();
        assert.match(await problem.innerText(), /field_invalid/);
        assert.doesNotMatch(await problem.innerText(), /Too small|expected/);
      },
    );

    step('no script error and nothing the policy blocked', () => {
      assert.deepEqual(story().pageProblems, []);
    });
  },
);
