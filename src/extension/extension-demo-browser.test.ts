import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../config/load-config.js';
import type { Demo } from '../demo/start-demo.js';
import { startDemo } from '../demo/start-demo.js';
import { freePort } from '../test-support/free-port.js';
import type { TestBackend } from '../test-support/test-backend.js';
import { testBackend } from '../test-support/test-backend.js';

const chromiumPath = '/usr/bin/chromium';
const skip =
  !existsSync(chromiumPath) && process.env.CI !== 'true'
    ? `no ${chromiumPath} (apt-get install chromium)`
    : false;

/** `npm run demo -- --with-extension`: a real browser signs in through the example extension. */
describe('the demo with the example extension, in headless Chromium', { skip }, () => {
  let demo: Demo;
  let browser: Browser;
  let dataDir: string;
  let backend: TestBackend;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ssogate-demo-ext-'));
    backend = await testBackend({ sqliteFile: join(dataDir, 'ssogate.db') });
    const port = await freePort();
    const config = loadConfig({
      ...backend.env,
      SSOGATE_PORT: String(port),
      SSOGATE_HOST: '127.0.0.1',
      SSOGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SSOGATE_DATA_DIR: dataDir,
      SSOGATE_ADMIN_PASSWORD: 'demo-admin-password',
      SSOGATE_LOG_LEVEL: 'silent',
    });
    demo = await startDemo(config, {
      providerPort: 0,
      announce: () => undefined,
      withExtension: { extensionPort: 0, acmePort: 0 },
    });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'],
    });
  });

  after(async () => {
    try {
      await browser.close();
      await demo.close();
    } finally {
      await backend.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('the chooser offers the extension entry; the Acme form signs in and lands on the page', async () => {
    const page = await browser.newPage();
    const gatewayUrl = demo.gateway.address.replace('localhost', '127.0.0.1');
    await page.goto(`${gatewayUrl}/_sso/login?return_to=%2Fwelcome`);
    await Promise.all([
      page.waitForURL(/\/sso\/authorize\?/),
      page.getByText('Acme (through an extension)').click(),
    ]);
    await page.getByLabel('User').fill('bob');
    await page.getByLabel('Password').fill('bob-password');
    await Promise.all([page.waitForURL(`${gatewayUrl}/welcome`), page.getByRole('button').click()]);
    await page.getByText('Bob Example').first().waitFor();
    const me = await page.request.get(`${gatewayUrl}/_sso/me`);
    assert.equal(((await me.json()) as { entryId: string }).entryId, 'acme');
  });
});
