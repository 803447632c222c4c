import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { AuditEvent } from '../../foundation/storage/types.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestBrowser } from '../../test-support/browser.js';
import { freePort } from '../../test-support/free-port.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

const canarySecret = 'CANARY-app-secret-7f3e';
const apiToken = 'ssg_failure-details-0123456789abcdefghijklmnopq';

/**
 * A failed sign-in's audit event keeps its masked cause, and the admin API
 * finds it by the reference id the user's error page shows
 * (docs/errors.md#finding-a-failure).
 */
describe('failed sign-ins, explained in the audit trail', () => {
  let gw: TestGateway;
  let browser: TestBrowser;
  let closedPort: number;
  before(async () => {
    closedPort = await freePort();
    gw = await startTestGateway({
      client: { appid: 'demo-app', secret: canarySecret },
      entries: ({ getStyle }) => [
        getStyle,
        {
          ...getStyle,
          id: 'refused',
          name: 'Refused',
          tokenUrl: (getStyle.tokenUrl as string).replace(
            /127\.0\.0\.1:\d+/,
            `127.0.0.1:${closedPort}`,
          ),
        },
        {
          ...getStyle,
          id: 'no-email',
          name: 'No e-mail',
          userInfoParse: "userId = JSON_GET($response, 'uid')",
        },
      ],
    });
    await gw.storage.apiTokens.create({
      id: 'tok1',
      name: 'ci',
      tokenHash: sha256Base64url(apiToken),
      createdAt: Date.now(),
    });
  });
  after(async () => gw.close());
  beforeEach(async () => {
    browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
  });

  /** Fails a sign-in at `entry`, then finds its event through the API by the page's reference. */
  async function failureDetail(entry: string, code: string): Promise<AuditEvent['detail']> {
    const page = await browser.open(`${gw.url}/_sso/login/${entry}?return_to=/x`);
    assert.match(page.body, new RegExp(code));
    const reference = /\b([0-9A-HJKMNP-TV-Z]{10})\b/.exec(
      page.body.split('Reference')[1] ?? '',
    )?.[1];
    assert.ok(reference, page.body);
    // The page goes out before its audit event is written (a networked database may lag).
    await waitForAuditEvent(gw.storage.audit, { reference });
    const answer = await fetch(`${gw.url}/_sso/api/audit?reference=${reference.toLowerCase()}`, {
      headers: { authorization: `Bearer ${apiToken}` },
    });
    assert.equal(answer.status, 200);
    const text = await answer.text();
    assert.doesNotMatch(text, new RegExp(canarySecret));
    const { events } = JSON.parse(text) as {
      events: { code: string; reference: string; detail: AuditEvent['detail'] }[];
    };
    assert.equal(events.length, 1);
    assert.equal(events[0]?.code, code);
    assert.equal(events[0].reference, reference);
    return events[0].detail;
  }

  test('a refused connection to the token URL names the network error and the host', async () => {
    const detail = await failureDetail('refused', 'token_request_failed');
    assert.equal(detail?.step, 'token');
    assert.equal(detail.cause, 'outbound_network');
    assert.equal(detail.network, 'ECONNREFUSED');
    assert.equal(detail.call, `GET to 127.0.0.1:${closedPort}`);
  });

  test("an HTTP error keeps the status and the server's error, with secrets masked", async () => {
    gw.example.failNext('token', {
      status: 400,
      body: JSON.stringify({
        error: 'invalid_client',
        error_description: `the secret ${canarySecret} is wrong`,
      }),
    });
    const detail = await failureDetail('example-get', 'token_request_failed');
    assert.equal(detail?.status, 400);
    assert.equal(detail.cause, 'response_status');
    assert.equal(detail.error, 'invalid_client');
    assert.match(detail.error_description as string, /^the secret \S+ is wrong$/);
    assert.doesNotMatch(JSON.stringify(detail), new RegExp(canarySecret));
  });

  test("the server's declining answer keeps error and error_description", async () => {
    gw.example.failNext('authorize', { error: 'access_denied', description: 'the user said no' });
    const detail = await failureDetail('example-get', 'provider_error');
    assert.deepEqual(detail, { error: 'access_denied', error_description: 'the user said no' });
  });

  test('a mapping that fails names the field and the cause', async () => {
    const detail = await failureDetail('no-email', 'userinfo_parse_failed');
    assert.equal(detail?.step, 'userinfo');
    assert.equal(detail.cause, 'key_not_found');
    assert.match(detail.message as string, /key 'uid' not found/);
    assert.equal(detail.attribute, 'userId');
    assert.equal(detail.expression, "JSON_GET($response, 'uid')");
  });

  test('the reference filter refuses what is not a reference id', async () => {
    const answer = await fetch(`${gw.url}/_sso/api/audit?reference=nope`, {
      headers: { authorization: `Bearer ${apiToken}` },
    });
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /query\.reference/);
  });
});
