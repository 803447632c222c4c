import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../config/load-config.js';
import type { Demo } from '../demo/start-demo.js';
import { startDemo } from '../demo/start-demo.js';
import { freePort } from './free-port.js';
import { testBackend } from './test-backend.js';

const chromiumPath = '/usr/bin/chromium';

/** CI installs Debian's chromium (.ci/run); elsewhere a browser test says it is skipped. */
export const chromiumSkip: string | false =
  !existsSync(chromiumPath) && process.env.CI !== 'true'
    ? `no ${chromiumPath} (apt-get install chromium)`
    : false;

export interface DemoInChromium {
  readonly demo: Demo;
  readonly browser: Browser;
  /** The gateway's address as the browser reaches it. */
  readonly gatewayUrl: string;
  close(): Promise<void>;
}

/** The demo on loopback ports with its own data and the suite's backend, and headless Chromium. */
export async function startDemoInChromium(
  options: Pick<Parameters<typeof startDemo>[1], 'withExtension'> = {},
): Promise<DemoInChromium> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-demo-'));
  const backend = await testBackend({ sqliteFile: join(dataDir, 'ssogate.db') });
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
  const demo = await startDemo(config, { providerPort: 0, announce: () => undefined, ...options });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    demo,
    browser,
    gatewayUrl: demo.gateway.address.replace('localhost', '127.0.0.1'),
    async close() {
      try {
        await browser.close();
        await demo.close();
      } finally {
        await backend.cleanup();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
