import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../foundation/config/load-config.js';
import type { Demo } from '../demo/start-demo.js';
import { startDemo } from '../demo/start-demo.js';
import { launchChromium } from './chromium.js';
import { freePort } from './free-port.js';
import { testBackend } from './test-backend.js';

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
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    SSOGATE_LOG_LEVEL: 'silent',
  });
  const demo = await startDemo(config, { providerPort: 0, announce: () => undefined, ...options });
  const browser = await launchChromium();
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
