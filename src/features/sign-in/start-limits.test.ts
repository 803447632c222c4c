import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { RedisInstances } from '../../test-support/redis-instances.js';
import { startRedisInstances } from '../../test-support/redis-instances.js';
import { needsRedis } from '../../test-support/test-backend.js';

/** One start without cookies, as a script would make it, from `address` (through the trusted proxy). */
async function start(
  gw: TestGateway,
  address?: string,
  cookie?: string,
): Promise<{ status: number; retryAfter: string | null; body: string; location: string }> {
  const headers: Record<string, string> = { accept: 'text/html' };
  if (address !== undefined) headers['x-forwarded-for'] = address;
  if (cookie !== undefined) headers.cookie = cookie;
  const response = await fetch(`${gw.url}/_sso/login/example-get?return_to=/x`, {
    headers,
    redirect: 'manual',
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
    location: response.headers.get('location') ?? '',
  };
}

const entries = ({ getStyle }: { getStyle: Record<string, unknown> }) => [getStyle];

describe('sign-in start limits', () => {
  let gw: TestGateway;
  let now = Date.UTC(2026, 0, 1);
  before(async () => {
    gw = await startTestGateway({
      entries,
      clock: () => now,
      env: {
        SSOGATE_SIGN_INS_PER_MINUTE: '5',
        SSOGATE_PENDING_PER_BROWSER: '3',
        SSOGATE_PENDING_SIGN_INS_MAX: '100',
        SSOGATE_TRUSTED_PROXIES: '127.0.0.1',
      },
    });
  });
  after(async () => gw.close());

  test('starts from one address beyond the limit get a coded 429 with Retry-After, never a 500', async () => {
    for (let index = 0; index < 5; index += 1) {
      assert.equal((await start(gw, '203.0.113.1')).status, 302);
    }
    const limited = await start(gw, '203.0.113.1');
    assert.equal(limited.status, 429);
    assert.match(limited.body, /rate_limited/);
    assert.equal(limited.retryAfter, '60');
    // Another address is not held back by this one.
    assert.equal((await start(gw, '203.0.113.2')).status, 302);
    // The window passes, the address may start again.
    now += 60_000;
    assert.equal((await start(gw, '203.0.113.1')).status, 302);
  });

  test('a browser keeps its newest pending sign-ins only', async () => {
    const cookie = 'ssogate_binding=' + 'b'.repeat(43);
    const states: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      now += 1; // one after the other, as a person's starts come
      const started = await start(gw, `198.51.100.${index}`, cookie);
      assert.equal(started.status, 302);
      states.push(new URL(started.location).searchParams.get('state') ?? '');
    }
    const stored = [];
    for (const state of states) {
      const key = sha256Base64url(`state:${state}`);
      stored.push((await gw.storage.pendingSignIns.consume(key)) !== undefined);
    }
    assert.deepEqual(stored, [false, false, true, true, true]);
  });

  test('starts across all addresses are bounded by SSOGATE_PENDING_SIGN_INS_MAX per pending lifetime', async () => {
    now += 60 * 60_000;
    let index = 0;
    const next = () => start(gw, `192.0.2.${String(index++ % 250)}`);
    for (let count = 0; count < 100; count += 1) assert.equal((await next()).status, 302);
    const limited = await next();
    assert.equal(limited.status, 429);
    assert.match(limited.body, /rate_limited/);
    assert.equal(limited.retryAfter, String(10 * 60));
    now += 10 * 60_000;
    assert.equal((await next()).status, 302);
  });

  test("forwarded values that are not addresses count as the proxy's own address", async () => {
    now += 60 * 60_000;
    // The proxy (the peer, 127.0.0.1) starts two sign-ins of its own.
    for (let index = 0; index < 2; index += 1) assert.equal((await start(gw)).status, 302);
    // No bucket of their own: each is one more start from the proxy.
    for (const forwarded of ['unknown', 'garbage', '1.2.3.4:80']) {
      assert.equal((await start(gw, forwarded)).status, 302, forwarded);
    }
    assert.equal((await start(gw)).status, 429);
    assert.equal((await start(gw, '[203.0.113.9]')).status, 429);
    // A real address behind the proxy still has its own.
    assert.equal((await start(gw, '203.0.113.9')).status, 302);
  });
});

describe('without a trusted proxy', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ entries, env: { SSOGATE_SIGN_INS_PER_MINUTE: '3' } });
  });
  after(async () => gw.close());

  test('a client cannot escape the limit with X-Forwarded-For', async () => {
    const statuses = [];
    for (let index = 0; index < 4; index += 1) {
      statuses.push((await start(gw, `203.0.113.${index}`)).status);
    }
    assert.deepEqual(statuses, [302, 302, 302, 429]);
  });
});

describe('two instances sharing Redis', { skip: needsRedis }, () => {
  let instances: RedisInstances;
  before(async () => {
    instances = await startRedisInstances({
      entries,
      env: { SSOGATE_SIGN_INS_PER_MINUTE: '4' },
    });
  });
  after(async () => instances.close());

  test('hold one limit together', async () => {
    const { one, two } = instances;
    const statuses = [];
    for (const gw of [one, two, one, two, one, two]) statuses.push((await start(gw)).status);
    assert.deepEqual(statuses, [302, 302, 302, 302, 429, 429]);
  });
});
