import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { openStorage } from '../../app/open-storage.js';
import type { GatewayStorage } from '../../app/open-storage.js';
import { needsRedis, withTestBackend } from '../../test-support/test-backend.js';
import { loadConfig } from '../config/load-config.js';
import { createSessionStore } from './session-store.js';
import { createSessionWriteAhead } from './session-write-ahead.js';
import type { SessionRecord, TogetherStores } from './types.js';

const signedInAt = Date.now();
/** How long a record waits for its sign-in before the sweep takes it (session-write-ahead.ts). */
const writeAheadGraceMs = 30_000;

/** Storage opened as the server opens it (Redis included), with a client on its Redis keys. */
async function withRedisStorage(
  run: (storage: GatewayStorage, redis: Redis, prefix: string) => Promise<void>,
): Promise<void> {
  await withTestBackend(async (backend) => {
    const storage = await openStorage(
      loadConfig({
        ...backend.env,
        SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
        SSOGATE_LOG_LEVEL: 'silent',
      }),
    );
    const redis = new Redis(backend.env.SSOGATE_REDIS_URL ?? '');
    try {
      await run(storage, redis, backend.env.SSOGATE_REDIS_PREFIX ?? '');
    } finally {
      redis.disconnect();
      await storage.close();
    }
  });
}

/** A session of the user's, made at the sign-in. */
function sessionOf(userRowId: number, userId: string): SessionRecord {
  return {
    idHash: `session-of-${userId}`,
    userRowId,
    entryId: null,
    createdAt: signedInAt,
    lastSeenAt: signedInAt,
    expiresAt: signedInAt + 3_600_000,
  };
}

/** A sign-in's writes (complete-sign-in.ts): its user, its audit event, its session. */
async function signIn(stores: TogetherStores, userId: string): Promise<SessionRecord> {
  const { user } = await stores.users.insertIfAbsent({ userId, sourceEntryId: null }, signedInAt);
  await stores.audit.append({
    at: signedInAt,
    kind: 'sign_in',
    outcome: 'success',
    entryId: null,
    userId,
    actor: null,
    code: null,
    reference: null,
    durationMs: 1,
    detail: null,
  });
  const session = sessionOf(user.id, userId);
  await stores.sessions.create(session);
  return session;
}

/** The rows of the SQL `sessions` table: with sessions in Redis, only write-ahead records. */
async function records(storage: GatewayStorage): Promise<string[]> {
  const rows = await storage.kysely.selectFrom('sessions').select('id_hash').execute();
  return rows.map((row) => row.id_hash);
}

/** What a process that died between its commit and its Redis write leaves: the commit alone. */
async function committedOnly(storage: GatewayStorage, userId: string): Promise<SessionRecord> {
  const { user } = await storage.users.insertIfAbsent({ userId, sourceEntryId: null }, signedInAt);
  const session = sessionOf(user.id, userId);
  const writeAhead = createSessionWriteAhead(storage.kysely, storage.sessions);
  await storage.kysely
    .transaction()
    .execute((trx) => writeAhead.record(createSessionStore(trx), [session]));
  return session;
}

describe('write-ahead records of sessions in Redis', { skip: needsRedis }, () => {
  test('a sign-in that writes its session leaves no record behind', async () => {
    await withRedisStorage(async (storage) => {
      const session = await storage.writeTogether((stores) => signIn(stores, 'whole'));
      assert.deepEqual(await storage.sessions.get(session.idHash), session);
      assert.deepEqual(await records(storage), []);
      // A sweep finds nothing to write.
      assert.equal(
        (await storage.sweepExpired(signedInAt + writeAheadGraceMs + 1, 0))?.sessionsRecovered,
        0,
      );
    });
  });

  test('a session Redis refused is written by the first sweep after the grace', async () => {
    await withRedisStorage(async (storage, redis, prefix) => {
      // A key of the wrong type where the session goes: Redis refuses its HSET.
      await redis.set(`${prefix}session:session-of-refused`, 'in the way');
      await assert.rejects(storage.writeTogether((stores) => signIn(stores, 'refused')));
      // The sign-in's rows are committed: its user, its event, and its record.
      assert.notEqual(await storage.users.findByUserId('refused'), undefined);
      assert.deepEqual(await records(storage), ['session-of-refused']);
      await redis.del(`${prefix}session:session-of-refused`);

      // Within the grace, the sign-in may still be writing it: left alone.
      await storage.sweepExpired(signedInAt + writeAheadGraceMs - 1_000, 0);
      assert.equal(await storage.sessions.get('session-of-refused'), undefined);
      const swept = await storage.sweepExpired(signedInAt + writeAheadGraceMs + 1, 0);
      assert.equal(swept?.sessionsRecovered, 1);
      assert.equal(
        (await storage.sessions.get('session-of-refused'))?.expiresAt,
        signedInAt + 3_600_000,
      );
      assert.deepEqual(await records(storage), []);
    });
  });

  test("a process that dies after its commit has its sign-in's session written by the sweep", async () => {
    await withRedisStorage(async (storage) => {
      const session = await committedOnly(storage, 'orphaned');
      assert.equal(await storage.sessions.get(session.idHash), undefined);
      await storage.sweepExpired(signedInAt + writeAheadGraceMs + 1, 0);
      assert.deepEqual(await storage.sessions.get(session.idHash), session);
      // The sessions of the user are found and ended as any other.
      assert.equal(await storage.sessions.deleteForUser(session.userRowId), 1);
    });
  });

  test('a sign-in whose record the sweep took over fails rather than answer', async () => {
    await withRedisStorage(async (storage) => {
      const writeAhead = createSessionWriteAhead(storage.kysely, storage.sessions);
      const session = await committedOnly(storage, 'slow');
      assert.equal(await writeAhead.recover(signedInAt + writeAheadGraceMs + 1), 1);
      // The sign-in, back from its long Redis write, finds its record gone.
      await assert.rejects(writeAhead.settle([session]), /sweep took over/);
    });
  });

  test('a record of a session already over is dropped, not written', async () => {
    await withRedisStorage(async (storage) => {
      const session = await committedOnly(storage, 'late');
      const swept = await storage.sweepExpired(session.expiresAt + 1, 0);
      assert.equal(swept?.sessionsRecovered, 0);
      assert.equal(await storage.sessions.get(session.idHash), undefined);
      assert.deepEqual(await records(storage), []);
    });
  });
});
