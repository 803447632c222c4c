import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../config/load-config.js';
import type { TestBrowser } from '../../../test-support/browser.js';
import { freePort } from '../../../test-support/free-port.js';
import type { TestGateway } from '../../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../../test-support/gateway-fixture.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import { PrivateRedisServer, redisServerInstalled } from './test-support/private-redis-server.js';

const skip =
  process.env.CI !== 'true' && !redisServerInstalled() ? 'redis-server is not installed' : false;

/** Every request in this test is bounded: an outage must answer, not hang. */
const requestLimitMs = 5000;

async function bounded<T>(what: string, run: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} took over ${requestLimitMs} ms`));
    }, requestLimitMs);
  });
  try {
    return await Promise.race([run, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Redis dies under a running gateway and comes back: meanwhile every request
 * needing it answers 503 service_unavailable at once (never a 500, never a
 * hang), and afterwards sign-ins work again without restarting the gateway.
 */
describe('a Redis outage and recovery', { skip, timeout: 60_000 }, () => {
  let redis: PrivateRedisServer | undefined;
  let gw: TestGateway | undefined;

  before(async () => {
    // Settings the configuration refuses fail here, plainly, before the
    // fixture has started servers that would keep the test process alive.
    loadConfig({
      SSOGATE_PUBLIC_URL: 'http://127.0.0.1:1',
      SSOGATE_DATABASE_URL: 'sqlite::memory:',
      SSOGATE_REDIS_URL: 'redis://127.0.0.1:1',
      SSOGATE_REDIS_PREFIX: 'fault-test:',
    });
    redis = new PrivateRedisServer(await freePort());
    await redis.start();
    gw = await startTestGateway({
      env: { SSOGATE_REDIS_URL: redis.url, SSOGATE_REDIS_PREFIX: 'fault-test:' },
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
    });
  });
  after(async () => {
    // The server first: a live child process would keep the test run open.
    try {
      await redis?.stop();
    } finally {
      await gw?.close();
    }
  });

  /** The started gateway and server (before() fails the suite otherwise). */
  function started(): { gw: TestGateway; redis: PrivateRedisServer } {
    assert.ok(gw !== undefined && redis !== undefined);
    return { gw, redis };
  }

  test('503 while Redis is down, sign-ins again once it is back', async () => {
    const { gw, redis } = started();
    const signIn = (browser: TestBrowser) => bounded('sign-in', browser.open(`${gw.url}/reports`));
    const me = (browser: TestBrowser) =>
      bounded('/_sso/me', browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' }));

    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const signedIn = await signIn(browser);
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.url, `${gw.url}/reports`);
    assert.equal((await me(browser)).status, 200);

    let cachesDropped = 0;
    gw.storage.changes.subscribe('entries', () => cachesDropped++);
    await redis.stop();

    const page = await signIn(browser);
    assert.equal(page.status, 503);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.body, /service_unavailable/);
    assert.equal(page.headers.get('retry-after'), '5');

    const json = await me(browser);
    assert.equal(json.status, 503);
    assert.equal(
      (JSON.parse(json.body) as { error: { code: string } }).error.code,
      'service_unavailable',
    );

    const ready = await bounded('readyz', fetch(`${gw.url}/_sso/readyz`));
    assert.equal(ready.status, 503);

    // A new sign-in cannot save its pending state: 503 too, not 500.
    const fresh = gw.browser();
    await signInAtExample(fresh, gw.example.url);
    const attempt = await signIn(fresh);
    assert.equal(attempt.status, 503);
    assert.match(attempt.body, /service_unavailable/);
    assert.ok(
      gw.logLines.every((line) => !line.includes('"code":"internal_error"')),
      'no request failed as internal_error',
    );

    await redis.start();
    // The gateway reconnects by itself, at most a second apart.
    const restartedAt = Date.now();
    await waitUntil(
      async () => (await bounded('readyz', fetch(`${gw.url}/_sso/readyz`))).status === 200,
      { message: 'ready again', timeoutMs: 10_000, intervalMs: 200 },
    );
    // Change notices sent during the outage were lost: reconnected, the
    // subscriber drops the caches as if everything had changed.
    await waitUntil(() => cachesDropped > 0, {
      message: 'caches dropped after reconnecting',
      timeoutMs: Math.max(0, restartedAt + 10_000 - Date.now()),
      intervalMs: 50,
    });

    // The restarted Redis kept nothing, so the old session is gone: signing
    // in again is silent at the example server and lands on the page.
    const again = await signIn(browser);
    assert.equal(again.status, 200);
    assert.equal(again.url, `${gw.url}/reports`);
    assert.equal((await me(browser)).status, 200);
    const other = await signIn(fresh);
    assert.equal(other.status, 200);
  });
});
