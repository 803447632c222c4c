import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../config/load-config.js';
import { freePort } from '../test-support/free-port.js';
import type { TestBackend } from '../test-support/test-backend.js';
import { testBackend } from '../test-support/test-backend.js';
import type { Demo } from './start-demo.js';
import { startDemo } from './start-demo.js';

const chromiumPath = '/usr/bin/chromium';
// CI installs Debian's chromium (.ci/run); elsewhere the test says it is skipped.
const skip =
  !existsSync(chromiumPath) && process.env.CI !== 'true'
    ? `no ${chromiumPath} (apt-get install chromium)`
    : false;

/** A newcomer's first minute: open the gateway, sign in at the example server, land signed in. */
describe('the demo in headless Chromium', { skip }, () => {
  let demo: Demo;
  let browser: Browser;
  let dataDir: string;
  let backend: TestBackend;
  const artefacts = join(process.cwd(), 'build', 'artefacts');

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ssogate-demo-'));
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
    demo = await startDemo(config, { providerPort: 0, announce: () => undefined });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await mkdir(artefacts, { recursive: true });
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

  test('signs in through the example server and lands on the requested page', async () => {
    const page = await browser.newPage();
    const gatewayUrl = demo.gateway.address.replace('localhost', '127.0.0.1');
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
