import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createSession, sessionHash } from '../sessions/session-service.js';
import type { AnnouncingRevocationFeed } from '../../foundation/storage/session-revocations.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { signOutWithCookie } from '../../test-support/sign-out.js';
import { needsPostgresAndRedis, testBackendName } from '../../test-support/test-backend.js';
import type { GatewayProcess } from '../../multi-instance/test-support/gateway-process.js';
import {
  sharedFileSettings,
  startProcessOnSharedFile,
} from '../../multi-instance/test-support/gateway-process.js';
import { cookieNames } from '../../foundation/web/index.js';
import type { EchoUpstream } from './test-support/upstream-fixture.js';
import { signedInCookie, startEchoUpstream } from './test-support/upstream-fixture.js';
import type { TestWebSocket } from './test-support/websocket-client.js';
import { openWebSocket } from './test-support/websocket-client.js';

const entryId = 'example-get';
const idOf = (cookie: string) => cookie.split('=')[1] ?? '';

/** A proxied WebSocket with this cookie, shown to carry a message both ways. */
async function openedSocket(
  gw: TestGateway,
  upstream: EchoUpstream,
  cookie: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<TestWebSocket> {
  const socket = await openWebSocket(gw.url, '/socket', { Cookie: cookie, ...headers });
  assert.equal(socket.status, 101, socket.answer);
  const word = `before-${randomBytes(4).toString('hex')}`;
  socket.send(word);
  assert.equal(await socket.next(), `echo: ${word}`);
  assert.ok(upstream.messages.includes(word));
  return socket;
}

/**
 * Opens a socket on `open`, runs `end` (which has ended its session when it
 * resolves), then sends a message at once: the socket closes, both sides,
 * and the message never reaches the upstream.
 */
async function closesWhenEnded(
  open: TestGateway,
  upstream: EchoUpstream,
  cookie: string,
  end: () => Promise<void>,
): Promise<void> {
  const socket = await openedSocket(open, upstream, cookie);
  const upstreamClosed = once(upstream.events, 'websocket-closed');
  await end();
  const after = `after-${randomBytes(4).toString('hex')}`;
  socket.send(after);
  assert.equal(await socket.next(), 'closed', 'the socket still carries messages');
  await socket.closed;
  await upstreamClosed;
  assert.ok(!upstream.messages.includes(after), 'a message reached the upstream after the end');
}

async function postAdmin(gw: TestGateway, path: string): Promise<void> {
  const answer = await fetch(`${gw.url}/_sso/api/${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await storedApiToken(gw, `t${randomBytes(4).toString('hex')}`)}`,
    },
  });
  assert.equal(answer.status, 200, await answer.text());
}

const rowOf = async (gw: TestGateway, userId: string) =>
  String((await gw.storage.users.findByUserId(userId))?.id);

/** A session signed in with the example entry, as its Cookie header. */
async function entryCookie(gw: TestGateway, userId: string): Promise<string> {
  const { user } = await gw.storage.users.insertIfAbsent(
    { userId, sourceEntryId: entryId },
    gw.gateway.clock(),
  );
  const id = await createSession(gw.gateway.sessions, user, entryId, undefined);
  return `${cookieNames(gw.gateway.config.secureCookies).session}=${id}`;
}

describe('proxied WebSockets end with their session', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let now = Date.now();

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: {
        SSOGATE_UPSTREAM: upstream.url,
        SSOGATE_SESSION_IDLE_MINUTES: '10',
        SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/sales', departments: ['Sales'] }]),
      },
      clock: () => now,
      upgradeRecheckMs: 50,
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  test('a sign-out through the sign-out route closes the socket at once', async () => {
    const cookie = await signedInCookie(gw.gateway, 'ada');
    await closesWhenEnded(gw, upstream, cookie, () => signOutWithCookie(gw.url, cookie));
  });

  test("a user locked through the admin API: the user's socket closes", async () => {
    const cookie = await signedInCookie(gw.gateway, 'ben');
    const kept = await openedSocket(gw, upstream, await signedInCookie(gw.gateway, 'bea'));
    await closesWhenEnded(gw, upstream, cookie, async () =>
      postAdmin(gw, `users/${await rowOf(gw, 'ben')}/lock`),
    );
    kept.send('still here');
    assert.equal(await kept.next(), 'echo: still here');
    kept.destroy();
  });

  test("a user's sessions ended through the admin API: the user's socket closes", async () => {
    const cookie = await signedInCookie(gw.gateway, 'cid');
    await closesWhenEnded(gw, upstream, cookie, async () =>
      postAdmin(gw, `users/${await rowOf(gw, 'cid')}/end-sessions`),
    );
  });

  test("the entry disabled: the sockets of its sessions close, a local session's stays", async () => {
    const cookie = await entryCookie(gw, 'dee');
    const local = await openedSocket(gw, upstream, await signedInCookie(gw.gateway, 'dan'));
    await closesWhenEnded(gw, upstream, cookie, () => postAdmin(gw, `entries/${entryId}/disable`));
    local.send('still here');
    assert.equal(await local.next(), 'echo: still here');
    local.destroy();
    await postAdmin(gw, `entries/${entryId}/enable`);
  });

  test('a change to the user that keeps the session and the access leaves the socket open; one that takes the access closes it', async () => {
    const cookie = await signedInCookie(gw.gateway, 'eve', { department: 'Sales' });
    const row = Number(await rowOf(gw, 'eve'));
    const socket = await openWebSocket(gw.url, '/sales/socket', { Cookie: cookie });
    assert.equal(socket.status, 101, socket.answer);
    await gw.storage.users.updateAttributes(row, { department: 'Sales', email: 'e@x.test' }, now);
    socket.send('kept');
    assert.equal(await socket.next(), 'echo: kept');
    await gw.storage.users.updateAttributes(row, { department: 'Support' }, now);
    socket.send('after');
    assert.equal(await socket.next(), 'closed');
    assert.ok(!upstream.messages.includes('after'));
  });

  test(
    'a socket does not outlive its session: past the idle limit it closes',
    { timeout: 5_000 },
    async () => {
      const cookie = await signedInCookie(gw.gateway, 'fay');
      const socket = await openedSocket(gw, upstream, cookie);
      now += 11 * 60_000;
      await socket.closed;
      assert.equal((await fetch(`${gw.url}/x`, { headers: { cookie } })).status, 401);
    },
  );

  test('a handshake from a page of another site is refused with 403; from the public URL it opens', async () => {
    const cookie = await signedInCookie(gw.gateway, 'gus');
    const handshakes = upstream.seen.length;
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1']) {
      const refused = await openWebSocket(gw.url, '/socket', { Cookie: cookie, Origin: origin });
      assert.equal(refused.status, 403, origin);
      assert.match(refused.answer, /"code":"origin_refused"/, origin);
    }
    assert.equal(upstream.seen.length, handshakes, 'a refused handshake reached the upstream');
    const same = await openedSocket(gw, upstream, cookie, { Origin: gw.url });
    same.destroy();
  });
});

/**
 * Two gateways on one PostgreSQL database and Redis key prefix, in one
 * process: a sign-out on one closes the socket open on the other.
 */
describe('proxied WebSockets on two gateways', { skip: needsPostgresAndRedis }, () => {
  let upstream: EchoUpstream;
  let one: TestGateway;
  let two: TestGateway;
  before(async () => {
    upstream = await startEchoUpstream();
    one = await startTestGateway({ env: { SSOGATE_UPSTREAM: upstream.url } });
    const { database, redisPrefix } = one.gateway.config;
    assert.equal(database.kind, 'postgres');
    two = await startTestGateway({
      env: {
        SSOGATE_UPSTREAM: upstream.url,
        SSOGATE_DATABASE_URL: database.url,
        SSOGATE_REDIS_PREFIX: redisPrefix,
      },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
    await upstream.close();
  });

  test('a sign-out on one gateway closes the socket open on the other', async () => {
    const cookie = await signedInCookie(one.gateway, 'hal');
    await closesWhenEnded(two, upstream, cookie, () => signOutWithCookie(one.url, cookie));
  });

  test('a lost link (a revocation of everything) closes only the sockets whose session is gone', async () => {
    const keptCookie = await signedInCookie(one.gateway, 'jon');
    const goneCookie = await signedInCookie(one.gateway, 'kim');
    const kept = await openedSocket(two, upstream, keptCookie);
    const gone = await openedSocket(two, upstream, goneCookie);
    // The session deleted behind the gateways' backs: nothing announces it.
    const redis = new Redis(process.env.SSOGATE_TEST_REDIS_URL ?? '');
    try {
      const { redisPrefix } = two.gateway.config;
      assert.equal(await redis.del(`${redisPrefix}session:${sessionHash(idOf(goneCookie))}`), 1);
    } finally {
      redis.disconnect();
    }
    gone.send('unannounced');
    assert.equal(await gone.next(), 'echo: unannounced');
    await (one.storage.revocations as AnnouncingRevocationFeed).announce({ scope: 'all' });
    await gone.closed;
    kept.send('kept');
    assert.equal(await kept.next(), 'echo: kept');
    kept.destroy();
  });

  test('a user locked on one gateway: the socket on the other closes', async () => {
    const cookie = await signedInCookie(one.gateway, 'ivy');
    await closesWhenEnded(two, upstream, cookie, async () =>
      postAdmin(one, `users/${await rowOf(one, 'ivy')}/lock`),
    );
  });
});

/**
 * A gateway in this process and another process on the same SQLite file:
 * the other's endings reach this one's log reader at its next catch-up,
 * which the periodic checks of open sockets make.
 */
describe(
  'proxied WebSockets beside another process on one SQLite file',
  { skip: testBackendName() === 'sqlite' ? false : 'runs on the SQLite backend' },
  () => {
    let dir: string;
    let upstream: EchoUpstream;
    let here: TestGateway;
    let there: GatewayProcess;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ssogate-shared-file-'));
      upstream = await startEchoUpstream();
      const env = sharedFileSettings(dir);
      here = await startTestGateway({
        env: { ...env, SSOGATE_UPSTREAM: upstream.url },
        upgradeRecheckMs: 100,
      });
      there = await startProcessOnSharedFile(dir, env);
    });
    after(async () => {
      await there.stop();
      await here.close();
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    });

    test('a user locked in the other process: the socket here closes', async () => {
      const cookie = await signedInCookie(here.gateway, 'lea');
      const socket = await openedSocket(here, upstream, cookie);
      const token = await storedApiToken(here, 'shared-file');
      const answer = await fetch(`${there.url}/_sso/api/users/${await rowOf(here, 'lea')}/lock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(answer.status, 200, await answer.text());
      await socket.closed;
    });

    test('with the default 30 s between checks, a sign-out in the other process closes the socket here within a second', async () => {
      const prompt = await startTestGateway({
        env: { ...sharedFileSettings(dir), SSOGATE_UPSTREAM: upstream.url },
      });
      try {
        const cookie = await signedInCookie(prompt.gateway, 'mia');
        const socket = await openedSocket(prompt, upstream, cookie);
        const token = await storedApiToken(prompt, 'shared-file-prompt');
        const answer = await fetch(
          `${there.url}/_sso/api/users/${await rowOf(prompt, 'mia')}/end-sessions`,
          { method: 'POST', headers: { authorization: `Bearer ${token}` } },
        );
        assert.equal(answer.status, 200, await answer.text());
        const startedAt = Date.now();
        await socket.closed;
        assert.ok(Date.now() - startedAt < 1000, `closed after ${Date.now() - startedAt} ms`);
      } finally {
        await prompt.close();
      }
    });
  },
);
