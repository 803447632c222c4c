import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DemoInChromium } from '../../test-support/demo-in-chromium.js';
import { chromiumSkip } from '../../test-support/chromium.js';
import { startDemoInChromium } from '../../test-support/demo-in-chromium.js';

/** `npm run demo -- --with-extension`: a real browser signs in through the example extension. */
describe(
  'the demo with the example extension, in headless Chromium',
  { skip: chromiumSkip },
  () => {
    let running: DemoInChromium;
    before(async () => {
      running = await startDemoInChromium({ withExtension: { extensionPort: 0, acmePort: 0 } });
    });
    after(async () => running.close());

    test('the chooser offers the extension entry; the Acme form signs in and lands on the page', async () => {
      const page = await running.browser.newPage();
      const { gatewayUrl } = running;
      await page.goto(`${gatewayUrl}/_sso/login?return_to=%2Fwelcome`);
      await Promise.all([
        page.waitForURL(/\/sso\/authorize\?/),
        page.getByText('Acme (through an extension)').click(),
      ]);
      await page.getByLabel('User').fill('bob');
      await page.getByLabel('Password').fill('bob-password');
      await Promise.all([
        page.waitForURL(`${gatewayUrl}/welcome`),
        page.getByRole('button').click(),
      ]);
      await page.getByText('Bob Example').first().waitFor();
      const me = await page.request.get(`${gatewayUrl}/_sso/me`);
      assert.equal(((await me.json()) as { entryId: string }).entryId, 'acme');
    });
  },
);
