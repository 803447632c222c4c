import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestBrowser } from '../../test-support/browser.js';
import { freePort } from '../../test-support/free-port.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { AcmeServer, ExampleExtensionModule, RunningExtension } from './example-extension.js';
import { acmeEntry, loadExampleExtension } from './example-extension.js';

const secret = 'extension-test-secret-0123456789';

/**
 * Whole sign-ins through the example extension (examples/extension-xml)
 * against the emulated Acme server, which sends the code as `authCode`,
 * wants a signed token request and answers in XML; and each way the
 * extension can fail, ending on its coded page and in the audit trail.
 */
describe('signing in through an extension', () => {
  let example: ExampleExtensionModule;
  let acme: AcmeServer;
  let extension: RunningExtension;
  let flaky: RunningExtension;
  let gw: TestGateway;
  let browser: TestBrowser;
  const extensionLog: string[] = [];

  before(async () => {
    example = await loadExampleExtension();
    acme = await example.startAcmeServer();
    extension = await example.startExtension({
      secret,
      basePath: '/ext',
      log: (line) => extensionLog.push(line),
    });
    flaky = await example.startExtension({ secret });
    const down = `http://127.0.0.1:${await freePort()}`;
    const base = acmeEntry(example, extension.url, acme.url, secret);
    gw = await startTestGateway({
      entries: () => [
        base,
        { ...base, id: 'acme-down', extensionUrl: down },
        { ...base, id: 'acme-flaky', extensionUrl: flaky.url },
        { ...base, id: 'acme-slow', timeoutMs: 300 },
        { ...base, id: 'acme-other-secret', extensionSecret: 'another-secret-0123456789' },
        { ...base, id: 'acme-bad-client', appsecret: 'not-the-client-secret' },
      ],
    });
  });
  after(async () => {
    await gw.close();
    await extension.close();
    await flaky.close();
    await acme.close();
  });
  beforeEach(async () => {
    browser = gw.browser();
    const signedIn = await browser.submit(`${acme.url}/sso/login`, {
      username: 'alice',
      password: 'alice-password',
      continue: '/',
    });
    assert.equal(signedIn.status, 200);
    acme.requests.length = 0;
  });

  const start = (entry = 'acme') => `${gw.url}/_sso/login/${entry}?return_to=/reports`;

  async function failsWith(url: string, status: number, code: string): Promise<string> {
    const page = await browser.open(url);
    assert.equal(page.status, status, page.body);
    assert.match(page.body, new RegExp(`<code>${code}</code>`));
    assert.match(page.body, /Reference/);
    assert.ok(!page.headers.getSetCookie().some((cookie) => cookie.startsWith('ssogate_session=')));
    return page.body;
  }

  /** The newest sign-in event with this code (null: a success's). */
  const lastSignInAudit = (code: string | null) =>
    waitForAuditEvent(gw.storage.audit, { kind: 'sign_in' }, (event) => event.code === code);

  test('a whole sign-in: authCode, a signed token request, XML user info', async () => {
    const page = await browser.open(start());
    assert.equal(page.status, 200, page.body);
    assert.equal(page.url, `${gw.url}/reports`);
    const [toAcme, toCallback] = page.hops;
    assert.ok(toAcme?.location?.startsWith(`${acme.url}/sso/authorize?client_id=acme-demo&`));
    const callback = new URL(toCallback?.location ?? '');
    assert.equal(callback.pathname, '/_sso/callback/acme');
    assert.ok(callback.searchParams.has('authCode'));
    assert.ok(!callback.searchParams.has('code'));
    const token = acme.requests.find(({ path }) => path === '/sso/token');
    assert.match(String(token?.body?.sign), /^[0-9a-f]{64}$/);

    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.deepEqual(JSON.parse(me.body), {
      userId: 'alice',
      userName: 'Alice Example',
      email: 'alice@example.test',
      mobile: null,
      department: 'Testing',
      isAdmin: false,
      entryId: 'acme',
    });
    const user = await gw.storage.users.findByUserId('alice');
    assert.deepEqual(user?.extra, { employeeNo: 'E-1001' });
    assert.equal((await lastSignInAudit(null)).outcome, 'success');
  });

  test("a control character in the extension's userId is refused like a mapped one", async () => {
    acme.failNext('userinfo', {
      status: 200,
      body: '<user><id>adm&#13;&#10;in</id><status>active</status></user>',
    });
    await failsWith(start(), 502, 'user_attribute_control_character');
    assert.equal(await gw.storage.users.findByUserId('adm\r\nin'), undefined);
  });

  test('a replayed callback is state_invalid, and the extension is not called again', async () => {
    const page = await browser.open(start());
    const callback = page.hops.find(({ url }) => url.includes('/_sso/callback/'))?.url ?? '';
    const tokenCalls = () => acme.requests.filter(({ path }) => path === '/sso/token').length;
    assert.equal(tokenCalls(), 1);
    await failsWith(callback, 400, 'state_invalid');
    assert.equal(tokenCalls(), 1);
  });

  test('a code or state with control or non-ASCII characters never reaches the extension', async () => {
    const tokenCalls = () => acme.requests.filter(({ path }) => path === '/sso/token').length;
    for (const code of ['a%00b', '%ff%fe', '%E4%BD%A0']) {
      const first = await browser.open(start(), { maxHops: 1 });
      const callback = first.hops[1]?.location ?? '';
      assert.match(callback, /\/_sso\/callback\/acme\?authCode=/);
      await failsWith(`${callback}&code=${code}`, 400, 'code_invalid');
      await failsWith(callback.replace(/state=[^&]*/, 'state=%00'), 400, 'state_invalid');
    }
    assert.equal(tokenCalls(), 0);
  });

  test('the extension is down: extension_unavailable', async () => {
    await failsWith(start('acme-down'), 502, 'extension_unavailable');
  });

  test('the extension goes down between the redirect and the callback: extension_unavailable', async () => {
    const first = await browser.open(start('acme-flaky'), { maxHops: 1 });
    const callback = first.hops[1]?.location ?? '';
    assert.match(callback, /\/_sso\/callback\/acme-flaky\?authCode=/);
    await flaky.close();
    await failsWith(callback, 502, 'extension_unavailable');
    assert.equal((await lastSignInAudit('extension_unavailable')).entryId, 'acme-flaky');
  });

  test("the extension's answer comes too late: extension_timeout", async () => {
    acme.failNext('token', { delayMs: 1500 });
    await failsWith(start('acme-slow'), 504, 'extension_timeout');
    assert.equal((await lastSignInAudit('extension_timeout')).outcome, 'failure');
  });

  test('a secret that differs on the two sides: extension_bad_signature', async () => {
    await failsWith(start('acme-other-secret'), 502, 'extension_bad_signature');
    assert.ok(extensionLog.some((line) => line.includes('signature_invalid')));
  });

  test('the user declines at the server: extension_error with its message, escaped', async () => {
    acme.failNext('authorize', { errorCode: 'ACCESS_DENIED', errorMsg: '<b>You said no</b>' });
    const body = await failsWith(start(), 502, 'extension_error');
    assert.match(body, /&lt;b&gt;You said no&lt;\/b&gt;/);
    assert.equal(acme.requests.filter(({ path }) => path === '/sso/token').length, 0);
    assert.equal((await lastSignInAudit('extension_error')).entryId, 'acme');
  });

  test("the server refuses the token request's signature: extension_error", async () => {
    const body = await failsWith(start('acme-bad-client'), 502, 'extension_error');
    assert.match(body, /SIGN_INVALID/);
    assert.doesNotMatch(body, /not-the-client-secret/);
  });
});
