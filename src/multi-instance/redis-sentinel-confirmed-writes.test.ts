import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isBackendUnavailable } from '../foundation/storage/backend-errors.js';
import type { RedisStores } from '../foundation/storage/redis/open-redis-stores.js';
import { openRedisStores } from '../foundation/storage/redis/open-redis-stores.js';
import { closeRedis, connectRedis } from '../foundation/storage/redis/redis-connection.js';
import { freePort } from '../test-support/free-port.js';
import {
  SentinelGroup,
  redisSentinelInstalled,
} from '../foundation/storage/redis/test-support/sentinel-group.js';
import type { SessionRecord } from '../foundation/storage/types.js';
import { waitUntil } from '../test-support/wait-until.js';

/** Under CI a missing redis-sentinel fails the suite rather than passing it silently. */
const skip =
  process.env.CI !== 'true' && !redisSentinelInstalled()
    ? 'redis-sentinel is not installed (Debian package redis-sentinel)'
    : false;

const prefix = 'confirmed-test:';
const lifetimeMs = 600_000;

function session(idHash: string): SessionRecord {
  const now = Date.now();
  return {
    idHash,
    userRowId: 1,
    entryId: null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + lifetimeMs,
  };
}

/**
 * Sessions written and ended without pause, from several writers at once,
 * while the Sentinels promote the replica. Redis replicates asynchronously:
 * what the old master answered in the moment before the promotion never
 * reaches the new one. Behind Sentinels a write is answered only once a
 * replica holds it (WAIT), else refused as an outage; so every session
 * whose creation was answered is on the new master, and every one whose
 * end was answered is gone from it.
 */
describe(
  'Redis behind Sentinels: writes answered during a failover',
  { skip, timeout: 180_000 },
  () => {
    const group = new SentinelGroup();
    let stores: RedisStores | undefined;

    before(async () => {
      await group.start();
      stores = await openRedisStores({
        target: {
          kind: 'sentinel',
          sentinels: group.sentinels.map((port) => ({ host: '127.0.0.1', port })),
          masterName: group.masterName,
          password: undefined,
          sentinelPassword: undefined,
        },
        prefix,
      });
    });
    after(async () => {
      try {
        await stores?.close();
      } finally {
        await group.stop();
      }
    });

    test('every session created or ended with an answer is so on the new master', async () => {
      assert.ok(stores !== undefined);
      const { sessions } = stores;
      // Sessions to end during the failover, written (and confirmed) before it.
      const toEnd: string[] = [];
      for (let index = 0; index < 2000; index += 1) {
        const idHash = `to-end-${index}`;
        await sessions.create(session(idHash));
        toEnd.push(idHash);
      }

      const created: string[] = [];
      const ended: string[] = [];
      let refused = 0;
      let running = true;
      let failedOver = false;
      let answeredAfter = 0;
      const writer = async (name: string): Promise<void> => {
        for (let index = 0; running; index += 1) {
          const ending = index % 2 === 1 ? toEnd.pop() : undefined;
          try {
            if (ending !== undefined) {
              await sessions.delete(ending);
              ended.push(ending);
            } else {
              const idHash = `${name}-${index}`;
              await sessions.create(session(idHash));
              created.push(idHash);
            }
            if (failedOver) answeredAfter += 1;
          } catch (error) {
            // An outage (no master, no replica's confirmation) is a refusal,
            // never a success; anything else is a failure of the test.
            if (!isBackendUnavailable(error)) throw error;
            refused += 1;
            // A connection that is down fails at once: not a busy loop meanwhile.
            await delay(5);
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, index) => writer(`writer-${index}`));
      try {
        await waitUntil(() => created.length >= 200 && ended.length >= 200, {
          message: 'writes under way before the failover',
          timeoutMs: 30_000,
        });
        await group.failOver();
        failedOver = true;
        await waitUntil(() => answeredAfter >= 200, {
          message: 'writes answered on the new master',
          timeoutMs: 30_000,
        });
      } finally {
        running = false;
        await Promise.all(writers);
      }

      const master = group.connect(await group.masterPort());
      const missing: string[] = [];
      for (const idHash of created) {
        if ((await master.exists(`${prefix}session:${idHash}`)) !== 1) missing.push(idHash);
      }
      const undone: string[] = [];
      for (const idHash of ended) {
        if ((await master.exists(`${prefix}session:${idHash}`)) !== 0) undone.push(idHash);
      }
      assert.deepEqual(
        { missing, undone },
        { missing: [], undone: [] },
        `of ${created.length} creations and ${ended.length} ends answered (${refused} refused), some are lost on the new master`,
      );
    });

    test('a Sentinel unreachable writes nothing of ioredis to stderr', async () => {
      // ioredis writes "[ioredis] Unhandled error event" with console.error.
      const printed: string[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => {
        printed.push(args.map(String).join(' '));
      };
      try {
        const unreachable = await freePort();
        const redis = await connectRedis(
          {
            kind: 'sentinel',
            sentinels: [
              { host: '127.0.0.1', port: unreachable },
              ...group.sentinels.map((port) => ({ host: '127.0.0.1', port })),
            ],
            masterName: group.masterName,
            password: undefined,
            sentinelPassword: undefined,
          },
          'stderr-test',
        );
        try {
          // Connected again, the connection's failover detector subscribes
          // on every Sentinel, the unreachable one failing, then says so.
          let subscribed = false;
          redis.once('failoverSubscribed', () => (subscribed = true));
          redis.disconnect(true);
          await waitUntil(() => subscribed, {
            message: "the failover detector's subscriptions, one failing",
            timeoutMs: 30_000,
          });
          assert.equal(await redis.ping(), 'PONG');
        } finally {
          await closeRedis(redis);
        }
      } finally {
        console.error = original;
      }
      assert.deepEqual(
        printed.filter((line) => line.includes('[ioredis]')),
        [],
      );
    });
  },
);
