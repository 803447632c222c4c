import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { freePort } from '../../../test-support/free-port.js';
import { waitUntil } from '../../../test-support/wait-until.js';
import type { Revocation } from '../session-revocations.js';
import type { RedisStores } from './open-redis-stores.js';
import { openRedisStores } from './open-redis-stores.js';
import { PrivateRedisServer, redisServerInstalled } from './test-support/private-redis-server.js';
import { connectRedis } from './redis-connection.js';

const skip =
  process.env.CI !== 'true' && !redisServerInstalled() ? 'redis-server is not installed' : false;

function last(heard: readonly Revocation[]): Revocation | undefined {
  return heard[heard.length - 1];
}

function heardBy(stores: RedisStores): Revocation[] {
  const heard: Revocation[] = [];
  stores.revocations.listen((revocation) => heard.push(revocation));
  return heard;
}

/**
 * Two instances on one Redis (a private server, so that its connections can
 * be cut): a revocation announced by one has been applied by the other when
 * the announcement resolves, and an instance that loses its subscriber
 * connection forgets everything and trusts nothing until it is back.
 */
describe('Redis revocation feed', { skip, timeout: 60_000 }, () => {
  let server: PrivateRedisServer;
  let one: RedisStores;
  let two: RedisStores;
  let admin: Redis;
  const prefix = 'revocations-test:';

  before(async () => {
    server = new PrivateRedisServer(await freePort());
    await server.start();
    one = await openRedisStores({ target: { kind: 'url', url: server.url }, prefix });
    two = await openRedisStores({ target: { kind: 'url', url: server.url }, prefix });
    admin = await connectRedis({ kind: 'url', url: server.url }, 'test-admin');
  });
  after(async () => {
    admin.disconnect();
    await Promise.all([one.close(), two.close()]);
    await server.stop();
  });

  const session = (idHash: string, userRowId: number) => ({
    idHash,
    userRowId,
    entryId: 'corp',
    createdAt: Date.now(),
    lastSeenAt: Date.now(),
    expiresAt: Date.now() + 60_000,
  });

  test('what one instance ends, the other has forgotten when the ending resolves', async () => {
    const heardByOne = heardBy(one);
    const heardByTwo = heardBy(two);
    await one.sessions.create(session('s1', 7));
    await one.sessions.create(session('s2', 8));
    assert.deepEqual(heardByTwo, []);

    await one.sessions.delete('s1');
    // No waiting: the announcement resolved after two acknowledged it.
    assert.deepEqual([...heardByTwo], [{ scope: 'session', idHash: 's1' }]);
    assert.deepEqual([...heardByOne], [{ scope: 'session', idHash: 's1' }]);
    await two.sessions.deleteForUser(8);
    assert.deepEqual(last(heardByOne), { scope: 'user', userRowId: 8 });
    await two.sessions.deleteForEntry('corp');
    assert.deepEqual(last(heardByOne), { scope: 'entry', entryId: 'corp' });
    await one.revocations.announce({ scope: 'user', userRowId: 9 });
    assert.deepEqual(last(heardByTwo), { scope: 'user', userRowId: 9 });
  });

  test('a lost subscriber connection forgets everything, and trusts again only once back', async () => {
    assert.equal(two.revocations.catchUp(), true);
    const heardByTwo = heardBy(two);
    // Cuts every subscriber connection (this private server's only).
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await waitUntil(() => heardByTwo.some(({ scope }) => scope === 'all'), {
      message: "the other instance to hear 'all' revoked",
      timeoutMs: 30_000,
    });
    // Reconnected, re-subscribed and confirmed by a ping (within a second or so).
    await waitUntil(() => two.revocations.catchUp(), {
      message: 'the other instance to trust the feed again',
      timeoutMs: 30_000,
    });
    await one.revocations.announce({ scope: 'session', idHash: 'after-reconnect' });
    assert.deepEqual(last(heardByTwo), { scope: 'session', idHash: 'after-reconnect' });
  });

  test('while Redis is down nothing is trusted; once back, revocations flow again', async () => {
    const heardByTwo = heardBy(two);
    await server.stop();
    await waitUntil(() => !two.revocations.catchUp(), {
      message: 'the other instance to stop trusting the feed',
      timeoutMs: 30_000,
    });
    assert.deepEqual(last(heardByTwo), { scope: 'all' });
    await server.start();
    await waitUntil(() => one.revocations.catchUp() && two.revocations.catchUp(), {
      message: 'both instances to trust the feed again',
      timeoutMs: 30_000,
    });
    // The command connection reconnects on its own schedule.
    await waitUntil(
      () =>
        one.ping().then(
          () => true,
          () => false,
        ),
      { message: 'the command connection to answer a ping', timeoutMs: 30_000 },
    );
    await one.revocations.announce({ scope: 'user', userRowId: 11 });
    assert.deepEqual(last(heardByTwo), { scope: 'user', userRowId: 11 });
  });
});
