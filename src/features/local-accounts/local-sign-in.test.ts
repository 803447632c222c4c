import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { bootstrapAdmin } from './bootstrap-admin.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import type { RedisInstances } from '../../test-support/redis-instances.js';
import { startRedisInstances } from '../../test-support/redis-instances.js';
import { needsRedis } from '../../test-support/test-backend.js';

async function formToken(browser: TestBrowser, gatewayUrl: string): Promise<string> {
  const chooser = await browser.open(`${gatewayUrl}/_sso/login?return_to=/after`);
  return /name="csrf" value="([^"]+)"/.exec(chooser.body)?.[1] ?? '';
}

/**
 * One local sign-in from `address`, as a browser at that address would make
 * it: the chooser first (for the binding cookie and the form's token), then
 * the form. inject() sets the client address the gateway sees.
 */
async function signInFrom(
  gw: TestGateway,
  address: string,
  username: string,
  password: string,
): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  const chooser = await gw.app.inject({
    url: '/_sso/login',
    remoteAddress: address,
    headers: { accept: 'text/html' },
  });
  const binding = chooser.cookies.find((cookie) => cookie.name === 'ssogate_binding');
  const csrf = /name="csrf" value="([^"]+)"/.exec(chooser.body)?.[1] ?? '';
  const response = await gw.app.inject({
    method: 'POST',
    url: '/_sso/login/local',
    remoteAddress: address,
    headers: {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `ssogate_binding=${binding?.value ?? ''}`,
    },
    payload: new URLSearchParams({ username, password, csrf }).toString(),
  });
  return {
    status: response.statusCode,
    retryAfter: response.headers['retry-after'],
    body: response.body,
  };
}

const password = 'correct horse battery';

describe('the local sign-in limit', () => {
  let gw: TestGateway;
  let now = Date.UTC(2026, 0, 1);
  before(async () => {
    gw = await startTestGateway({ clock: () => now });
    await bootstrapAdmin(gw.storage.users, password, now);
  });
  after(async () => gw.close());

  test("a stranger failing many times for admin does not stop the administrator's right password from another address", async () => {
    const statuses = new Set<number>();
    for (let index = 0; index < 30; index += 1) {
      statuses.add((await signInFrom(gw, '203.0.113.66', 'admin', `guess ${index}`)).status);
    }
    assert.deepEqual([...statuses].sort(), [401, 429]);
    const admin = await signInFrom(gw, '198.51.100.7', 'admin', password);
    assert.equal(admin.status, 303);
  });

  test('the same address is slowed progressively, right password or not, then forgiven on success', async () => {
    const address = '192.0.2.10';
    for (let index = 0; index < 5; index += 1) {
      assert.equal((await signInFrom(gw, address, 'admin', 'wrong')).status, 401);
    }
    for (const seconds of [1, 2, 4, 8]) {
      const held = await signInFrom(gw, address, 'admin', password);
      assert.equal(held.status, 429);
      assert.match(held.body, /rate_limited/);
      assert.equal(held.retryAfter, String(seconds));
      now += seconds * 1000;
      if (seconds < 8) assert.equal((await signInFrom(gw, address, 'admin', 'wrong')).status, 401);
    }
    assert.equal((await signInFrom(gw, address, 'admin', password)).status, 303);
    // The success cleared this address's failures for the account.
    assert.equal((await signInFrom(gw, address, 'admin', 'wrong')).status, 401);
    assert.equal((await signInFrom(gw, address, 'admin', password)).status, 303);
  });

  test('Admin, " admin" and ADMIN count as the same account', async () => {
    const address = '192.0.2.20';
    for (const username of ['Admin', ' admin', 'ADMIN ', 'admin', 'aDmin']) {
      assert.equal((await signInFrom(gw, address, username, 'wrong')).status, 401);
    }
    assert.equal((await signInFrom(gw, address, 'admin', password)).status, 429);
    // Another account from the same address is not held back.
    assert.equal((await signInFrom(gw, address, 'nobody', 'wrong')).status, 401);
  });
});

describe('the local sign-in limit on two instances sharing Redis', { skip: needsRedis }, () => {
  let instances: RedisInstances;
  before(async () => {
    instances = await startRedisInstances();
    for (const gw of [instances.one, instances.two]) {
      await bootstrapAdmin(gw.storage.users, password, Date.now());
    }
  });
  after(async () => instances.close());

  test('failures on one instance hold the address back on the other', async () => {
    const { one, two } = instances;
    for (const gw of [one, two, one, two, one]) {
      assert.equal((await signInFrom(gw, '203.0.113.5', 'admin', 'wrong')).status, 401);
    }
    // Five failures, split between the instances, add up to the limit on either.
    const held = await signInFrom(two, '203.0.113.5', 'admin', password);
    assert.equal(held.status, 429);
    assert.match(held.body, /rate_limited/);
    assert.equal((await signInFrom(one, '203.0.113.5', 'admin', password)).status, 429);
    assert.equal((await signInFrom(one, '198.51.100.5', 'admin', password)).status, 303);
  });
});

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
