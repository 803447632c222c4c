import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
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

/**
 * Remembered sessions are forgotten one by one: what a revocation names,
 * nothing else. Runs on the suite's backend (the SQLite log, or Redis
 * pub/sub with sessions there); sessions in PostgreSQL alone are never
 * remembered.
 */
describe('remembered sessions are forgotten per session and per user', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
    });
  });
  after(async () => gw.close());

  const skipWithoutCache = (): boolean => !gw.gateway.sessionCache.enabled;
  const check = async (cookie: string): Promise<number> =>
    (await fetch(`${gw.url}/_sso/auth`, { headers: { cookie } })).status;
  const idOf = (cookie: string) => cookie.split('=')[1] ?? '';
  const isRemembered = (cookie: string) =>
    gw.gateway.sessionCache.remembered(idOf(cookie)) !== undefined;

  /** Signed in, checked twice, and remembered. */
  async function rememberedCookie(userId: string): Promise<string> {
    const cookie = await signedInCookie(gw.gateway, userId);
    assert.equal(await check(cookie), 204);
    assert.equal(await check(cookie), 204);
    assert.equal(isRemembered(cookie), true, `${userId}'s session is remembered`);
    return cookie;
  }

  const userRowId = async (userId: string) =>
    (await gw.storage.users.findByUserId(userId))?.id ?? 0;

  test("a sign-out forgets that session only, the same user's others included", async (t) => {
    if (skipWithoutCache()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const ann = await rememberedCookie('ann');
    const annElsewhere = await rememberedCookie('ann');
    const ben = await rememberedCookie('ben');
    const out = await fetch(`${gw.url}/_sso/logout`, {
      method: 'POST',
      headers: { cookie: ann, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: csrfTokenFor(idOf(ann)) }).toString(),
      redirect: 'manual',
    });
    assert.equal(out.status, 303);
    assert.equal(isRemembered(ann), false);
    assert.equal(await check(ann), 401);
    assert.equal(isRemembered(annElsewhere), true);
    assert.equal(isRemembered(ben), true);
  });

  test('a sign-in, a new session and an audit row forget nothing', async (t) => {
    if (skipWithoutCache()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const cid = await rememberedCookie('cid');
    // A full sign-in through the entry: a user row, a session, an audit row.
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'alice');
    const landed = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/`);
    assert.equal(landed.status, 200, landed.body);
    // The same user signing in again, attributes unchanged.
    await signedInCookie(gw.gateway, 'cid');
    assert.equal(isRemembered(cid), true);
    assert.equal(await check(cid), 204);
  });

  test("a user disabled forgets every session of theirs at once, and nobody else's", async (t) => {
    if (skipWithoutCache()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const dan = await rememberedCookie('dan');
    const danElsewhere = await rememberedCookie('dan');
    const eli = await rememberedCookie('eli');
    await gw.storage.users.setEnabled(await userRowId('dan'), false, Date.now());
    assert.equal(isRemembered(dan), false);
    assert.equal(isRemembered(danElsewhere), false);
    assert.equal(await check(dan), 401);
    assert.equal(await check(danElsewhere), 401);
    assert.equal(isRemembered(eli), true);
  });

  test("an admin flag or an attribute changed forgets the user's sessions, read again at the next check", async (t) => {
    if (skipWithoutCache()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const fay = await rememberedCookie('fay');
    const gus = await rememberedCookie('gus');
    await gw.storage.users.setAdmin(await userRowId('fay'), true, Date.now());
    assert.equal(isRemembered(fay), false);
    assert.equal(await check(fay), 204);
    assert.equal(isRemembered(fay), true);
    await gw.storage.users.updateAttributes(
      await userRowId('fay'),
      { email: 'fay@new.example' },
      Date.now(),
    );
    assert.equal(isRemembered(fay), false);
    const answer = await fetch(`${gw.url}/_sso/auth`, { headers: { cookie: fay } });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('x-auth-request-email'), 'fay@new.example');
    // Answered from memory now, with the headers of the user as changed.
    assert.equal(isRemembered(fay), true);
    const remembered = await fetch(`${gw.url}/_sso/auth`, { headers: { cookie: fay } });
    assert.equal(remembered.headers.get('x-auth-request-email'), 'fay@new.example');
    assert.equal(isRemembered(gus), true);
  });

  test("a user's sessions ended forgets them all; others stay", async (t) => {
    if (skipWithoutCache()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const hal = await rememberedCookie('hal');
    const ivy = await rememberedCookie('ivy');
    assert.equal(await gw.storage.sessions.deleteForUser(await userRowId('hal')), 1);
    assert.equal(isRemembered(hal), false);
    assert.equal(await check(hal), 401);
    assert.equal(isRemembered(ivy), true);
  });
});
