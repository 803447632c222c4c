import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DemoInChromium } from '../test-support/demo-in-chromium.js';
import { chromiumSkip } from '../test-support/chromium.js';
import { startDemoInChromium } from '../test-support/demo-in-chromium.js';

/**
 * `npm run demo -- --with-extension`, followed as a newcomer follows it: the
 * README's sign-in as alice first, then the banner's sign-in at Acme as
 * alice, then the other example entry. None of them ends in account_conflict.
 */
describe("the demo's instructions in order, in headless Chromium", { skip: chromiumSkip }, () => {
  let running: DemoInChromium;
  before(async () => {
    running = await startDemoInChromium({ withExtension: { extensionPort: 0, acmePort: 0 } });
  });
  after(async () => running.close());

  test("the README's alice, then the banner's alice at Acme, then the POST JSON entry: each signs in", async () => {
    const context = await running.browser.newContext();
    const page = await context.newPage();
    const { gatewayUrl } = running;
    const me = async () =>
      (await (await page.request.get(`${gatewayUrl}/_sso/me`)).json()) as {
        entryId: string;
        userId: string;
      };

    // The README: open the gateway, sign in at the example server as alice.
    await page.goto(`${gatewayUrl}/`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await Promise.all([page.waitForURL(`${gatewayUrl}/`), page.getByRole('button').click()]);
    assert.deepEqual(await me(), { ...(await me()), entryId: 'example-get', userId: 'alice' });

    // The banner: sign in at /_sso/login/acme as alice, Acme's own user.
    await page.goto(`${gatewayUrl}/_sso/login/acme`);
    await page.getByLabel('User').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await Promise.all([page.waitForURL(`${gatewayUrl}/`), page.getByRole('button').click()]);
    await page.getByText('Signed in as').waitFor();
    assert.deepEqual(await me(), { ...(await me()), entryId: 'acme', userId: 'acme:alice' });

    // The chooser's other example entry: the example server still knows alice, the same user.
    await page.goto(`${gatewayUrl}/_sso/login/example-json`);
    await page.waitForURL(`${gatewayUrl}/`);
    await page.getByText('Signed in as').waitFor();
    assert.deepEqual(await me(), { ...(await me()), entryId: 'example-json', userId: 'alice' });
    await context.close();
  });
});
