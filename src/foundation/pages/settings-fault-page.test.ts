import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * A sign-in that fails on the entry's own settings (a wrong client secret:
 * the server answers 400 invalid_client at the token call) tells the user an
 * administrator must fix it and gives the reference, instead of "try again
 * later"; a passing failure of the same call still offers a retry.
 */
describe('the error page of a sign-in refused for its settings, over HTTP', () => {
  let gateway: TestGateway;

  before(async () => {
    gateway = await startTestGateway({
      entries: ({ getStyle }) => [
        { ...getStyle, appsecret: 'not-the-app-secret' },
        { ...getStyle, id: 'right', name: 'Right' },
      ],
    });
  });
  after(async () => gateway.close());

  async function signInThrough(entryId: string) {
    const browser = gateway.browser();
    await signInAtExample(browser, gateway.example.url);
    return browser.open(`${gateway.url}/_sso/login/${entryId}?return_to=/wiki`);
  }

  test('a wrong client secret: an administrator must fix it, with the reference', async () => {
    const page = await signInThrough('example-get');
    assert.equal(page.status, 502);
    assert.match(page.body, /<code>token_request_failed<\/code>/);
    assert.match(page.body, /An administrator must fix it; please give them the reference below\./);
    assert.match(page.body, /Reference: <code>[0-9A-Z]{10}<\/code>/);
    assert.doesNotMatch(page.body, /try again later|>Try again</i);
    assert.match(page.body, />Choose another way to sign in</);
  });

  test('a server that is down still says to try again later', async () => {
    gateway.example.failNext('token', { status: 500, body: 'boom' });
    const page = await signInThrough('right');
    assert.equal(page.status, 502);
    assert.match(page.body, /Please try again later\./);
    assert.match(page.body, />Try again</);
    assert.doesNotMatch(page.body, /administrator must fix/);
  });
});
