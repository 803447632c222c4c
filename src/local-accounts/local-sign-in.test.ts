import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../test-support/browser.js';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { startTestGateway } from '../test-support/gateway-fixture.js';
import { bootstrapAdmin } from './bootstrap-admin.js';
import { hashPassword, verifyPassword } from './password-hash.js';

async function formToken(browser: TestBrowser, gatewayUrl: string): Promise<string> {
  const chooser = await browser.open(`${gatewayUrl}/_sso/login?return_to=/after`);
  return /name="csrf" value="([^"]+)"/.exec(chooser.body)?.[1] ?? '';
}

describe('local accounts', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
    await bootstrapAdmin(gw.storage.users, 'correct horse battery', Date.now());
  });
  after(async () => gw.close());

  test('the administrator signs in with the form and lands on return_to', async () => {
    const browser = gw.browser();
    const csrf = await formToken(browser, gw.url);
    const page = await browser.submit(`${gw.url}/_sso/login/local`, {
      username: 'admin',
      password: 'correct horse battery',
      return_to: '/after',
      csrf,
    });
    assert.equal(page.hops[0]?.status, 303);
    assert.equal(page.url, `${gw.url}/after`);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as { isAdmin: boolean }).isAdmin, true);
  });

  test('a form without its token is refused', async () => {
    const page = await gw
      .browser()
      .submit(`${gw.url}/_sso/login/local`, { username: 'admin', password: 'x' });
    assert.equal(page.status, 403);
    assert.match(page.body, /csrf_failed/);
  });

  test('wrong passwords are refused alike, then rate-limited', async () => {
    const browser = gw.browser();
    const csrf = await formToken(browser, gw.url);
    for (const username of ['admin', 'admin', 'nobody', 'admin', 'admin']) {
      const page = await browser.submit(`${gw.url}/_sso/login/local`, {
        username,
        password: 'wrong',
        csrf,
      });
      assert.equal(page.status, 401);
      assert.match(page.body, /not right/);
    }
    const limited = await browser.submit(`${gw.url}/_sso/login/local`, {
      username: 'admin',
      password: 'correct horse battery',
      csrf,
    });
    assert.equal(limited.status, 429);
    assert.match(limited.body, /rate_limited/);
  });

  test('the first administrator is created once, with a generated password when none is set', async () => {
    const fresh = await startTestGateway();
    try {
      const first = await bootstrapAdmin(fresh.storage.users, undefined, Date.now());
      assert.equal(first.created, true);
      assert.match(first.generatedPassword ?? '', /^[\w-]{24}$/);
      const admin = await fresh.storage.users.findByUserId('admin');
      assert.ok(admin?.isAdmin === true && admin.passwordHash !== null);
      assert.equal(await verifyPassword(first.generatedPassword ?? '', admin.passwordHash), true);
      assert.equal(
        (await bootstrapAdmin(fresh.storage.users, undefined, Date.now())).created,
        false,
      );
    } finally {
      await fresh.close();
    }
  });

  test('passwords are scrypt hashes checked in constant time', async () => {
    const hash = await hashPassword('s3cret password');
    assert.match(hash, /^scrypt\$32768\$8\$1\$/);
    assert.equal(await verifyPassword('s3cret password', hash), true);
    assert.equal(await verifyPassword('s3cret passwore', hash), false);
    assert.equal(await verifyPassword('x', 'md5$abc'), false);
  });
});
