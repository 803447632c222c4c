import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * An entry stored before the policy existed, or whose name DNS now sends to
 * loopback, is refused when the call is made: a coded error page, an audit
 * event and a log line, and no connection to the address.
 */
describe('a sign-in whose token call names a refused host', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      // The fixture allows 127.0.0.1, where the example server listens; not the name localhost.
      entries: ({ getStyle }) => [
        { ...getStyle, tokenUrl: String(getStyle.tokenUrl).replace('127.0.0.1', 'localhost') },
      ],
    });
  });
  after(async () => gw.close());

  test('ends on token_request_failed, audited and logged as outbound_address_refused', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.requests.length = 0;
    const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/x`);
    assert.equal(page.status, 502, page.body);
    assert.match(page.body, /token_request_failed/);
    assert.equal(
      gw.example.requests.filter(({ path }) => path.endsWith('/token')).length,
      0,
      'the token call reached the server',
    );
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'sign_in' },
      (event) => event.code === 'token_request_failed',
    );
    const logged = gw.logLines.find((line) => line.includes('outbound_address_refused'));
    assert.ok(logged, 'no log line names outbound_address_refused');
    assert.match(logged, /localhost names this machine/);
    assert.doesNotMatch(logged, /app_secret|secret=/);
  });
});
