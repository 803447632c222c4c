import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { routineLineEvery } from '../../foundation/logging/routine-lines.js';

/** The statuses of the request lines for `path` written since `from`. */
function linesFor(gw: TestGateway, path: string, from: number): number[] {
  return gw.logLines
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request completed')
    .filter((line) => (line.req as { url: string }).url === path)
    .map((line) => (line.res as { statusCode: number }).statusCode);
}

/** A browser signed in to the gateway, landed on the portal page. */
async function signedIn(gw: TestGateway): Promise<TestBrowser> {
  const browser = gw.browser();
  await signInAtExample(browser, gw.example.url);
  const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/portal`);
  assert.equal(page.url, `${gw.url}/portal`);
  return browser;
}

/**
 * The portal page shown to a signed-in user is routine, like a proxied
 * request let through: it writes its line one time in routineLineEvery
 * (docs/configuration.md#logs); the same page asked without a session, and
 * every page with SSOGATE_REQUEST_LOG=all, always writes one.
 */
describe('the portal page and its log line', () => {
  let sampled: TestGateway;
  let all: TestGateway;
  before(async () => {
    const entries = ({ getStyle }: { getStyle: Record<string, unknown> }) => [getStyle];
    sampled = await startTestGateway({ entries });
    all = await startTestGateway({ entries, env: { SSOGATE_REQUEST_LOG: 'all' } });
  });
  after(async () => {
    await sampled.close();
    await all.close();
  });

  test(`sampled (the default): a signed-in user's portal page writes its line one time in ${routineLineEvery}`, async () => {
    const browser = await signedIn(sampled);
    const from = sampled.logLines.length;
    for (let view = 0; view < routineLineEvery * 2; view += 1) {
      const page = await browser.exchange('GET', `${sampled.url}/portal`);
      assert.equal(page.status, 200);
    }
    assert.deepEqual(linesFor(sampled, '/portal', from), [200, 200]);
  });

  test('sampled: the portal asked without a session writes its line every time', async () => {
    const from = sampled.logLines.length;
    const statuses: number[] = [];
    for (let tried = 0; tried < 3; tried += 1) {
      statuses.push((await sampled.browser().exchange('GET', `${sampled.url}/portal`)).status);
    }
    assert.deepEqual(linesFor(sampled, '/portal', from), statuses);
  });

  test('SSOGATE_REQUEST_LOG=all: every view of the portal writes its line', async () => {
    const browser = await signedIn(all);
    const from = all.logLines.length;
    for (let view = 0; view < 5; view += 1) {
      assert.equal((await browser.exchange('GET', `${all.url}/portal`)).status, 200);
    }
    assert.deepEqual(linesFor(all, '/portal', from), [200, 200, 200, 200, 200]);
  });
});
