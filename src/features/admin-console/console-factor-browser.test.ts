import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { consoleSkip, consoleStory } from '../../test-support/console-in-chromium.js';
import { storySteps } from '../../test-support/story-steps.js';
import { base32Decode, totpCode } from '../second-factor/totp.js';

/**
 * SSOGATE_ADMIN_SECOND_FACTOR=required (within 30 minutes) in Chromium: the
 * administrator opens the console, signs in with the local form, is asked
 * to enrol an authenticator (first need), gives a code computed here with
 * the gateway's own TOTP (second-factor/totp.ts, RFC 6238) for the
 * gateway's clock, and lands on the console, which then talks to the admin
 * API; once the 30 minutes have passed, the console's next call sends the
 * page to the factor page, and a code brings it back. The HTTP-level
 * proofs are in console-factor.test.ts.
 */
describe(
  'the console asks its administrator for a second factor, in Chromium',
  { skip: consoleSkip },
  () => {
    let now = Date.UTC(2026, 10, 29, 12, 0, 0);
    let secret: Uint8Array = new Uint8Array();
    const story = consoleStory({
      clock: () => now,
      env: {
        SSOGATE_ADMIN_SECOND_FACTOR: 'required',
        SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '30',
      },
    });
    const step = storySteps();

    step('the administrator signs in and is asked to enrol an authenticator', async () => {
      const { gateway, page } = story();
      await page.goto(`${gateway.url}/_sso/admin`);
      assert.match(page.url(), /\/_sso\/login\?return_to=%2F_sso%2Fadmin$/);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('console-admin-password');
      await Promise.all([
        page.waitForURL(`${gateway.url}/_sso/factor?return_to=%2F_sso%2Fadmin`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      await page.locator('#factor-secret').waitFor();
    });

    step('a computed code saves it, and the recovery codes continue to the console', async () => {
      const { gateway, page, pageProblems } = story();
      const shown = base32Decode((await page.locator('#factor-secret').textContent()) ?? '');
      assert.ok(shown !== undefined, 'the key shown is base32');
      secret = shown;
      await page.locator('#name').fill('Phone');
      await page.locator('#code').fill(totpCode(secret, now));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('#recovery-codes').waitFor();
      assert.equal(await page.locator('#recovery-codes li').count(), 10);
      await Promise.all([
        page.waitForURL(`${gateway.url}/_sso/admin`),
        page.getByRole('link', { name: 'Continue' }).click(),
      ]);
      // The console's pages call the admin API with the session: its list of users answers.
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.getByText('admin', { exact: true }).first().waitFor();
      assert.deepEqual(pageProblems, []);
    });

    step(
      "past the 30 minutes, the console's next call goes to the factor page, and a code comes back",
      async () => {
        const { gateway, page, pageProblems } = story();
        now += 31 * 60_000;
        // The audit page calls the API, which answers 401 second_factor_required.
        await Promise.all([
          page.waitForURL((url) => url.pathname === '/_sso/factor'),
          page.getByRole('link', { name: 'Audit' }).click(),
        ]);
        const back = new URL(page.url()).searchParams.get('return_to') ?? '';
        assert.match(back, /^\/_sso\/admin\/audit/);
        await page.locator('#code').fill(totpCode(secret, now));
        await Promise.all([
          page.waitForURL(`${gateway.url}${back}`),
          page.getByRole('button', { name: 'Continue' }).click(),
        ]);
        await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
        assert.deepEqual(pageProblems, []);
      },
    );
  },
);
