import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * An entry whose authorizeUrl has no ${state}: its pending sign-in is keyed
 * by the entry and the browser-binding cookie, one per browser and entry
 * (docs/entries.md, "Entries without ${state}").
 */
describe('an entry without ${state}', () => {
  let gw: TestGateway;
  let now = Date.UTC(2026, 0, 1);
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [
        {
          ...getStyle,
          id: 'no-state',
          name: 'No state',
          authorizeUrl: String(getStyle.authorizeUrl).replace('&state=${state}', ''),
        },
      ],
      clock: () => now,
    });
  });
  after(async () => gw.close());

  test('a second start in one browser replaces the first, even after it expired, and signs in', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const start = `${gw.url}/_sso/login/no-state?return_to=/second`;
    const first = await browser.open(start, { maxHops: 0 });
    assert.equal(first.status, 302);
    const second = await browser.open(start, { maxHops: 0 });
    assert.equal(second.status, 302, second.body);
    assert.ok(second.headers.get('location')?.startsWith(`${gw.example.url}/get/authorize?`));

    // Long after both expired, a new start still works and completes.
    now += 24 * 60 * 60_000;
    const page = await browser.open(start);
    assert.equal(page.status, 200, page.body);
    assert.equal(page.url, `${gw.url}/second`);
    assert.ok(!gw.logLines.some((line) => line.includes('"code":"internal_error"')));
  });
});
