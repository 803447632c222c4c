import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
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

  /** The README's demo paragraph, whitespace collapsed: the steps below follow it word for word. */
  async function readmeDemoText(): Promise<string> {
    const readme = await readFile(join(process.cwd(), 'README.md'), 'utf8');
    return readme.replace(/\s+/g, ' ');
  }

  test("follows the README's demo text: sign in, sign out here, silent sign-in, sign out everywhere", async () => {
    const readme = await readmeDemoText();
    const steps = [
      'With `npm run demo`, open <http://localhost:8080/> and sign in at the example server as `alice` / `alice-password`: you land back on the page you asked for, signed in.',
      "Choose **Sign out here** to end the gateway's session only, then open <http://localhost:8080/> again: the sign-in is silent, because the example server still knows you.",
      '**Sign out everywhere** also signs you out of the example server, so the next visit asks for the password again.',
    ];
    for (const step of steps) assert.ok(readme.includes(step), `the README says: ${step}`);
    const page = await browser.newPage();
    const { gatewayUrl } = running;

    // Open the gateway and sign in at the example server: back on the page asked for, signed in.
    await page.goto(`${gatewayUrl}/`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await Promise.all([page.waitForURL(`${gatewayUrl}/`), page.getByRole('button').click()]);
    await page.getByText('Signed in as').waitFor();

    // Sign out here, open it again: silent, no page of the server's.
    await Promise.all([
      page.waitForURL(`${gatewayUrl}/_sso/signed-out?scope=here`),
      page.getByRole('button', { name: 'Sign out here' }).click(),
    ]);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.goto(`${gatewayUrl}/`);
    assert.equal(page.url(), `${gatewayUrl}/`);
    await page.getByText('Signed in as').waitFor();
    assert.deepEqual(visited, [`${gatewayUrl}/`], 'no page but the one asked for');

    // Sign out everywhere: the next visit asks for the password again.
    await Promise.all([
      page.waitForURL(`${gatewayUrl}/_sso/signed-out`),
      page.getByRole('button', { name: 'Sign out everywhere' }).click(),
    ]);
    await page.goto(`${gatewayUrl}/`);
    await page.getByLabel('Password').waitFor();
    assert.match(page.url(), new RegExp(`^${running.demo.example.url}/`));
    await page.close();
  });

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
