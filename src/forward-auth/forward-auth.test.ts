import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../test-support/gateway-fixture.js';

describe('GET /_sso/auth', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }] });
  });
  after(async () => gw.close());

  test('204 with the identity headers for a valid session, 401 without one', async () => {
    const browser = gw.browser();
    const anonymous = await browser.open(`${gw.url}/_sso/auth`, { accept: '*/*' });
    assert.equal(anonymous.status, 401);
    await signInAtExample(browser, gw.example.url);
    await browser.open(`${gw.url}/`);
    const checked = await browser.open(`${gw.url}/_sso/auth`, { accept: '*/*' });
    assert.equal(checked.status, 204);
    assert.equal(checked.headers.get('x-auth-request-user'), 'alice');
    assert.equal(checked.headers.get('x-auth-request-email'), 'alice@example.test');
    assert.equal(checked.headers.get('x-auth-request-preferred-username'), 'Alice Liddell');
  });
});
