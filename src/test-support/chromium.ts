import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's chromium; tests never download a browser. */
export const chromiumPath = '/usr/bin/chromium';

/** CI installs Debian's chromium (.ci/run); elsewhere a browser test says it is skipped. */
export const chromiumSkip: string | false =
  !existsSync(chromiumPath) && process.env.CI !== 'true'
    ? `no ${chromiumPath} (apt-get install chromium)`
    : false;

/**
 * Headless Chromium, quiet: no sandbox, no GPU, no background calls home.
 * `extraArgs` add switches (`--host-resolver-rules` for several host names
 * on loopback).
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
