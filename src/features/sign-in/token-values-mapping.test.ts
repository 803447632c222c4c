import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * A mapping that reads a value of the token answer (`tokenValues`, through
 * TOKEN_VALUE) beside the user-info answer, as WeChat's `unionid` needs:
 * the example server's POST JSON style sends the `openid` with the token.
 */
describe('user mapping from the token answer', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ jsonStyle }) => [
        {
          ...jsonStyle,
          userInfoParse:
            "userId = CONCAT('wx-', TOKEN_VALUE('openid'))\nuserName = JSON_PATH($response, 'data.name')",
        },
        {
          ...jsonStyle,
          id: 'undeclared',
          name: 'Undeclared',
          userInfoParse: "userId = TOKEN_VALUE('unionid')",
        },
      ],
    });
  });
  after(async () => gw.close());

  test('the user id comes from the token answer, the name from the user-info answer', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const page = await browser.open(`${gw.url}/_sso/login/example-json?return_to=/x`);
    assert.equal(page.status, 200, page.body);
    const token = gw.example.requests.find(({ path }) => path === '/json/userinfo');
    const openid = (token?.body as { openid?: string } | undefined)?.openid;
    assert.ok(openid);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    const user = JSON.parse(me.body) as { userId: string; userName: string };
    assert.equal(user.userId, `wx-${openid}`);
    assert.equal(user.userName, 'Alice Liddell');
  });

  test('a token value the entry does not declare fails the mapping, naming the ones it has', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const page = await browser.open(`${gw.url}/_sso/login/undeclared?return_to=/x`);
    assert.equal(page.status, 502);
    assert.match(page.body, /userinfo_parse_failed/);
    const reference = /Reference: <code>([A-Z0-9]+)<\/code>/.exec(page.body)?.[1] ?? 'none';
    const line = gw.logLines.find((text) => text.includes(reference));
    assert.match(
      line ?? '',
      /token value 'unionid' not found; the entry's tokenValues are named 'openid'/,
    );
  });
});
