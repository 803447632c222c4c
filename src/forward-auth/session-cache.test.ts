import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { startTestGateway } from '../test-support/gateway-fixture.js';
import { signedInCookie } from '../reverse-proxy/test-support/upstream-fixture.js';
import { csrfTokenFor } from '../sessions/session-service.js';

/**
 * Forward-auth remembers sessions between checks while the SQLite file is
 * unchanged; any change must end that at once. Run on a file, without Redis,
 * so that a second connection (a CLI command beside the server) can write.
 */
describe('session checks stay instant with remembered sessions', () => {
  let gw: TestGateway;
  let dir: string;
  let file: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-cache-'));
    file = join(dir, 'ssogate.db');
    gw = await startTestGateway({
      env: { SSOGATE_DATABASE_URL: `sqlite:${file}`, SSOGATE_REDIS_URL: '' },
    });
  });
  after(async () => {
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  const check = async (cookie: string): Promise<number> =>
    (await fetch(`${gw.url}/_sso/auth`, { headers: { cookie } })).status;

  test('the storage has a revocation feed, so sessions are remembered', () => {
    assert.notEqual(gw.storage.revocations, undefined);
    assert.equal(gw.gateway.sessionCache.enabled, true);
  });

  test('sign-out ends the session for the very next check', async () => {
    const cookie = await signedInCookie(gw.gateway, 'dora');
    assert.equal(await check(cookie), 204);
    assert.equal(await check(cookie), 204);
    const sessionId = cookie.split('=')[1] ?? '';
    const out = await fetch(`${gw.url}/_sso/logout`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: csrfTokenFor(sessionId) }).toString(),
      redirect: 'manual',
    });
    assert.ok(out.status === 303 || out.status === 302, String(out.status));
    assert.equal(await check(cookie), 401);
  });

  test('a user disabled in storage is refused at the next check', async () => {
    const cookie = await signedInCookie(gw.gateway, 'eve');
    assert.equal(await check(cookie), 204);
    const user = await gw.storage.users.findByUserId('eve');
    await gw.storage.users.setEnabled(user?.id ?? 0, false, Date.now());
    assert.equal(await check(cookie), 401);
  });

  test('a session deleted by another connection to the file is refused at the next check', async () => {
    const cookie = await signedInCookie(gw.gateway, 'finn');
    assert.equal(await check(cookie), 204);
    assert.equal(await check(cookie), 204);
    const other = new BetterSqlite3(file);
    try {
      other.pragma('busy_timeout = 5000');
      const user = await gw.storage.users.findByUserId('finn');
      other.prepare('DELETE FROM sessions WHERE user_row_id = ?').run(user?.id);
    } finally {
      other.close();
    }
    assert.equal(await check(cookie), 401);
  });
});

/** Activity must extend even the shortest idle time, remembered checks included. */
describe('a one-minute idle time with remembered session checks', () => {
  const clock = { now: Date.parse('2024-05-01T12:00:00Z') };
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      clock: () => clock.now,
      env: { SSOGATE_SESSION_IDLE_MINUTES: '1' },
    });
  });
  after(async () => gw.close());

  const check = async (cookie: string): Promise<number> =>
    (await fetch(`${gw.url}/_sso/auth`, { headers: { cookie } })).status;

  test('a check every 40 s keeps the session for minutes; a 61 s gap ends it', async () => {
    const cookie = await signedInCookie(gw.gateway, 'gina');
    for (let second = 40; second <= 360; second += 40) {
      clock.now += 40_000;
      assert.equal(await check(cookie), 204, `checked at ${second} s`);
      assert.equal(await check(cookie), 204, `checked again at ${second} s`);
    }
    clock.now += 61_000;
    assert.equal(await check(cookie), 401);
  });
});
