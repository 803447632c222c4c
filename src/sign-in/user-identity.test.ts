import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../test-support/gateway-fixture.js';

/**
 * Which user a user-info answer names, end to end: the example server is
 * made to answer exactly the JSON under test, and the gateway's session says
 * who signed in.
 */
describe('user identity from the user-info answer', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [
        {
          ...getStyle,
          userInfoParse: "userId = JSON_GET($response,'id')\nuserName = JSON_GET($response,'name')",
        },
      ],
    });
  });
  after(async () => gw.close());

  /** Signs a new browser in with the user-info answer `body`; returns the page and /_sso/me. */
  async function signInWith(body: string) {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.failNext('userinfo', { body });
    const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/x`);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    return {
      page,
      me: me.status === 200 ? (JSON.parse(me.body) as Record<string, unknown>) : null,
    };
  }

  /**
   * The page names the step (userinfo_parse_failed) and its reference; the
   * log line with that reference names the precise mapping error.
   */
  function refusedWith(page: { status: number; body: string }, code: string): void {
    assert.equal(page.status, 502, page.body);
    assert.match(page.body, /Error code: <code>userinfo_parse_failed<\/code>/);
    const reference = /Reference: <code>([A-Z0-9]+)<\/code>/.exec(page.body)?.[1] ?? 'none';
    const line = gw.logLines.find((text) => text.includes(reference));
    assert.ok(line?.includes(`${code}:`), line);
  }

  test('two 64-bit ids that differ in the last digits are two users', async () => {
    const first = await signInWith('{"id":12345678901234567890,"name":"alice"}');
    const second = await signInWith('{"id":12345678901234567891,"name":"mallory"}');
    assert.equal(first.me?.userId, '12345678901234567890');
    assert.equal(second.me?.userId, '12345678901234567891');
    const alice = await gw.storage.users.findByUserId('12345678901234567890');
    assert.equal(alice?.userName, 'alice');
  });

  test('an id that is a fraction, -0 or an exponent form ends on a coded error page', async () => {
    for (const id of ['1e21', '1.5', '-0']) {
      const { page, me } = await signInWith(`{"id":${id},"name":"x"}`);
      refusedWith(page, 'user_attribute_number_inexact');
      assert.equal(me, null);
    }
    assert.equal(await gw.storage.users.findByUserId('0'), undefined);
  });

  test('an id with a control character ends on a coded error page', async () => {
    const { page, me } = await signInWith('{"id":"adm\\r\\nin","name":"x"}');
    refusedWith(page, 'user_attribute_control_character');
    assert.equal(me, null);
  });
});
