import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { DemoInChromium } from '../test-support/demo-in-chromium.js';
import { chromiumSkip } from '../test-support/chromium.js';
import { startDemoInChromium } from '../test-support/demo-in-chromium.js';

/** A newcomer's first minute: open the gateway, sign in at the example server, land signed in. */
describe('the demo in headless Chromium', { skip: chromiumSkip }, () => {
  let running: DemoInChromium;
  let browser: Browser;
  const artefacts = join(process.cwd(), 'build', 'artefacts');

  before(async () => {
    running = await startDemoInChromium();
    browser = running.browser;
    await mkdir(artefacts, { recursive: true });
  });

  after(async () => running.close());

  test('signs in through the example server and lands on the requested page', async () => {
    const page = await browser.newPage();
    const { gatewayUrl } = running;
    await page.goto(`${gatewayUrl}/welcome?from=demo`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await page.screenshot({ path: join(artefacts, 'demo-example-login.png') });
    await Promise.all([
      page.waitForURL(`${gatewayUrl}/welcome?from=demo`),
      page.getByRole('button').click(),
    ]);
    await page.getByText('Alice Liddell').first().waitFor();
    await page.screenshot({ path: join(artefacts, 'demo-portal.png') });

    // A second visit in the same browser is silent: no page of the gateway's or the server's.
    const again = await browser.newPage({ storageState: await page.context().storageState() });
    await again.context().clearCookies({ name: 'ssogate_session' });
    await again.goto(`${gatewayUrl}/second`);
    assert.equal(again.url(), `${gatewayUrl}/second`);
    assert.match(await again.content(), /Alice Liddell/);
  });
});
