import { describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Dialog } from 'playwright-core';
import {
  consoleSkip,
  consoleStory,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import { storySteps } from '../../test-support/story-steps.js';

/**
 * An administrator resets a user's second factors from the console's list
 * of users, in both languages: the button asks to confirm, calls
 * POST /_sso/api/users/{id}/second-factors/reset, and says what it did
 * (the user's sessions ended: second-factor.test.ts and
 * second-factor-browser.test.ts show that side).
 */
describe("resetting a user's second factors in the console", { skip: consoleSkip }, () => {
  const story = consoleStory();
  const step = storySteps();
  let carol = 0;
  const confirmations: string[] = [];
  const addFactor = async (factorId: string) => {
    const { gateway } = story();
    await gateway.storage.secondFactors.addTotp({
      factorId,
      userRowId: carol,
      name: 'Phone',
      secret: 'JBSWY3DPEHPK3PXP',
      lastStep: 1,
      createdAt: Date.now(),
    });
  };

  step('the administrator signs in; carol holds an authenticator', async () => {
    const { gateway, page } = story();
    carol = (
      await gateway.storage.users.insertIfAbsent({ userId: 'carol', sourceEntryId: null }, 1)
    ).user.id;
    await addFactor('f1');
    page.on('dialog', (dialog: Dialog) => {
      confirmations.push(dialog.message());
    });
    await signInToConsole(page, gateway.url);
  });

  step('Reset second factors asks to confirm, removes them and says so', async () => {
    const { gateway, page } = story();
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'Reset second factors: carol' }).click();
    await page
      .getByText('1 second factor of carol removed; carol is signed out everywhere.')
      .waitFor();
    assert.match(
      confirmations.at(-1) ?? '',
      /^Remove every authenticator and recovery code of carol/,
    );
    assert.deepEqual(await gateway.storage.secondFactors.list(carol), []);
  });

  step('in Chinese, the same button and its words', async () => {
    const { page } = story();
    await addFactor('f2');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '用户' }).waitFor();
    await page.getByRole('button', { name: '重置第二重验证: carol' }).click();
    await page
      .getByText('已移除 carol 的 1 种第二重验证方式；carol 已在所有地方退出登录。')
      .waitFor();
    assert.match(confirmations.at(-1) ?? '', /^移除 carol 的所有身份验证器和恢复码/);
  });
});
