import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { listenerApplicationName } from '../foundation/storage/postgres/postgres-revocation-feed.js';
import { signedInCookie } from '../features/reverse-proxy/test-support/upstream-fixture.js';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../test-support/gateway-fixture.js';
import { signOutWithCookie } from '../test-support/sign-out.js';
import { testBackendName } from '../test-support/test-backend.js';
import { waitUntil } from '../test-support/wait-until.js';
import type { GatewayProcess } from './test-support/gateway-process.js';
import { sharedFileSettings, startProcessOnSharedFile } from './test-support/gateway-process.js';

const idOf = (cookie: string) => cookie.split('=')[1] ?? '';

async function authStatus(gatewayUrl: string, cookie: string): Promise<number> {
  return (await fetch(`${gatewayUrl}/_sso/auth`, { headers: { cookie } })).status;
}

/** Whether the gateway remembers the session of this cookie. */
const remembered = (gw: TestGateway, cookie: string) =>
  gw.gateway.sessionCache.remembered(idOf(cookie)) !== undefined;

/** Signs the user in on the first gateway; each gateway then accepts the cookie twice and remembers it. */
async function rememberedByEach(gateways: readonly TestGateway[], userId: string): Promise<string> {
  const [first] = gateways;
  assert.ok(first);
  const cookie = await signedInCookie(first.gateway, userId);
  for (const gw of gateways) {
    assert.deepEqual(
      [await authStatus(gw.url, cookie), await authStatus(gw.url, cookie)],
      [204, 204],
    );
    assert.equal(remembered(gw, cookie), true);
  }
  return cookie;
}

/**
 * Signs `ended` and `kept` in (both remembered by both gateways) and `other`
 * in on the second; ends `ended` there: the first refuses it at its next
 * check, and the other sign-in made it forget nothing.
 */
async function signOutHoldsOnTheOther(
  one: TestGateway,
  two: TestGateway,
  [ended, kept, other]: readonly [string, string, string],
): Promise<void> {
  const endedCookie = await rememberedByEach([one, two], ended);
  const keptCookie = await rememberedByEach([one, two], kept);
  await signedInCookie(two.gateway, other);
  assert.equal(remembered(one, keptCookie), true);
  await signOutWithCookie(two.url, endedCookie);
  assert.equal(await authStatus(one.url, endedCookie), 401);
  assert.equal(remembered(one, keptCookie), true);
}

/** A user remembered by both, locked through the second's admin API: the first refuses it. */
async function lockHoldsOnTheOther(
  one: TestGateway,
  two: TestGateway,
  tokenName: string,
  userId: string,
): Promise<void> {
  const token = await storedApiToken(one, tokenName);
  const cookie = await rememberedByEach([one, two], userId);
  const row = (await one.storage.users.findByUserId(userId))?.id;
  await postAdmin(two.url, token, `users/${String(row)}/lock`);
  assert.equal(await authStatus(one.url, cookie), 401);
}

async function postAdmin(gatewayUrl: string, token: string, path: string): Promise<void> {
  const answer = await fetch(`${gatewayUrl}/_sso/api/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(answer.status, 200, await answer.text());
}

/**
 * A gateway in this process and another process on the same SQLite file: what
 * the other process ends is refused here at the very next check, although
 * this gateway remembered the session; what it writes otherwise (sign-ins,
 * audit rows) forgets nothing here.
 */
describe('two processes on one SQLite file', () => {
  let dir: string;
  let here: TestGateway;
  let there: GatewayProcess;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-shared-file-'));
    const env = sharedFileSettings(dir);
    here = await startTestGateway({ env });
    there = await startProcessOnSharedFile(dir, env);
  });
  after(async () => {
    await there.stop();
    await here.close();
    await rm(dir, { recursive: true, force: true });
  });

  const rememberedHere = (userId: string) => rememberedByEach([here], userId);

  test('a sign-out in the other process is refused here at the next check; others stay remembered', async () => {
    const nia = await rememberedHere('nia');
    const oto = await rememberedHere('oto');
    assert.equal(await authStatus(there.url, nia), 204);
    await signOutWithCookie(there.url, nia);
    assert.equal(await authStatus(here.url, nia), 401);
    assert.equal(await authStatus(there.url, nia), 401);
    assert.equal(remembered(here, oto), true);
    assert.equal(await authStatus(here.url, oto), 204);
  });

  test('a user locked, or signed out everywhere, in the other process is refused here at the next check', async () => {
    const token = await storedApiToken(here, 'shared-file');
    const pia = await rememberedHere('pia');
    const quin = await rememberedHere('quin');
    const rowOf = async (userId: string) => (await here.storage.users.findByUserId(userId))?.id;
    await postAdmin(there.url, token, `users/${String(await rowOf('pia'))}/lock`);
    assert.equal(await authStatus(here.url, pia), 401);
    await postAdmin(there.url, token, `users/${String(await rowOf('quin'))}/end-sessions`);
    assert.equal(await authStatus(here.url, quin), 401);
  });
});

/**
 * Two gateways on one PostgreSQL database and one Redis key prefix, in one
 * process: each remembers sessions, and what one ends the other refuses at
 * the next check, because the ending waits for every instance to have
 * forgotten it.
 */
describe('two gateways on PostgreSQL and Redis', { skip: needs('postgres+redis') }, () => {
  let one: TestGateway;
  let two: TestGateway;
  before(async () => {
    one = await startTestGateway();
    const { database, redisPrefix } = one.gateway.config;
    assert.equal(database.kind, 'postgres');
    two = await startTestGateway({
      env: {
        SSOGATE_DATABASE_URL: database.url,
        SSOGATE_REDIS_PREFIX: redisPrefix,
      },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
  });

  test('a sign-out on one is refused on the other at the next check; a sign-in forgets nothing', async () => {
    await signOutHoldsOnTheOther(one, two, ['rex', 'sam', 'tia']);
  });

  test('a user locked on one is refused on the other at the next check', async () => {
    await lockHoldsOnTheOther(one, two, 'shared-postgres', 'uma');
  });
});

/**
 * Two gateways on one PostgreSQL database without Redis: each remembers
 * sessions, told of the other's endings over LISTEN/NOTIFY, so a sign-out
 * or a lock on one holds on the other at the next check; a gateway whose
 * listening connection is cut remembers nothing until it listens again.
 */
describe('two gateways on PostgreSQL alone', { skip: needs('postgres') }, () => {
  let one: TestGateway;
  let two: TestGateway;
  before(async () => {
    one = await startTestGateway({ env: { SSOGATE_REDIS_URL: '' } });
    const { database } = one.gateway.config;
    two = await startTestGateway({
      env: {
        SSOGATE_DATABASE_URL: database.kind === 'postgres' ? database.url : '',
        SSOGATE_REDIS_URL: '',
      },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
  });

  const rememberedByBoth = (userId: string) => rememberedByEach([one, two], userId);

  test('a sign-out on one is refused on the other at the next check; a sign-in forgets nothing', async () => {
    assert.equal(one.gateway.sessionCache.enabled, true);
    await signOutHoldsOnTheOther(one, two, ['vic', 'wes', 'xia']);
  });

  test('a user locked on one is refused on the other at the next check', async () => {
    await lockHoldsOnTheOther(one, two, 'postgres-alone', 'yan');
  });

  test('a cut listening connection forgets every remembered session', async () => {
    const zoe = await rememberedByBoth('zoe');
    const { database } = one.gateway.config;
    const admin = new pg.Client({
      connectionString: database.kind === 'postgres' ? database.url : '',
    });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = $1 and datname = current_database()`,
        [listenerApplicationName],
      );
    } finally {
      await admin.end();
    }
    await waitUntil(() => !remembered(one, zoe) && !remembered(two, zoe), {
      message: 'both instances to forget the session',
      timeoutMs: 30_000,
    });
    // Still signed in: read from the database again, and remembered once trusted.
    assert.equal(await authStatus(one.url, zoe), 204);
    await waitUntil(() => one.storage.revocations?.catchUp() === true, {
      message: 'the revocation feed to be trusted again',
      timeoutMs: 30_000,
    });
    assert.equal(await authStatus(one.url, zoe), 204);
    assert.equal(remembered(one, zoe), true);
  });
});

/** Skips unless the suite runs on PostgreSQL (with Redis, when asked). */
function needs(backend: 'postgres' | 'postgres+redis'): string | false {
  const name = testBackendName();
  const ok = backend === 'postgres' ? name.startsWith('postgres') : name === 'postgres+redis';
  return ok ? false : `needs the ${backend} backend`;
}
