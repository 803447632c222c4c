import { randomBytes } from 'node:crypto';
import { describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { loadConfig } from '../foundation/config/load-config.js';
import { keptAfterExpiryMs } from '../features/trial-sign-in/storage/trial-sign-in-store.js';
import type { GatewayStorage } from './open-storage.js';
import { withTestBackend } from '../test-support/test-backend.js';
import { waitUntil } from '../test-support/wait-until.js';
import { buildApp } from './build-app.js';
import { createGateway } from './create-gateway.js';
import { startExpirySweep } from './expiry-sweep.js';
import { openStorage } from './open-storage.js';

const minute = 60_000;
const idleMs = 120 * minute;

/**
 * The SQL tables of the suite's database (SQLite, or PostgreSQL), without
 * Redis: with Redis, sessions and pending sign-ins live there and expire by
 * TTL, so only the SQL tables need sweeping.
 */
async function withSqlStorage(run: (storage: GatewayStorage) => Promise<void>): Promise<void> {
  await withTestBackend(async (backend) => {
    const env = Object.fromEntries(
      Object.entries(backend.env).filter(([name]) => !name.startsWith('SSOGATE_REDIS_')),
    );
    const storage = await openStorage(
      loadConfig({
        ...env,
        SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
        SSOGATE_LOG_LEVEL: 'silent',
      }),
    );
    try {
      await run(storage);
    } finally {
      await storage.close();
    }
  });
}

/** One expired and one live session and pending sign-in at `now`, named by suffix. */
async function storeRows(storage: GatewayStorage, now: number, suffix: string): Promise<void> {
  const { user } = await storage.users.insertIfAbsent(
    { userId: 'u', sourceEntryId: null },
    now - idleMs * 2,
  );
  const session = (idHash: string, lastSeenAt: number, expiresAt: number) =>
    storage.sessions.create({
      idHash,
      userRowId: user.id,
      entryId: null,
      createdAt: lastSeenAt,
      lastSeenAt,
      expiresAt,
    });
  await session(`ended-${suffix}`, now - minute, now);
  await session(`idle-${suffix}`, now - idleMs - 1, now + idleMs);
  await session(`live-${suffix}`, now - minute, now + idleMs);
  const pending = (stateHash: string, expiresAt: number) =>
    storage.pendingSignIns.save({
      stateHash,
      entryId: 'corp',
      returnTo: '/',
      bindingHash: 'b',
      redirectUri: 'https://gw.example/_sso/callback/corp',
      codeVerifier: null,
      createdAt: expiresAt - 10 * minute,
      expiresAt,
    });
  await pending(`expired-${suffix}`, now);
  await pending(`live-${suffix}`, now + minute);
}

/** Which of the rows stored are still stored. */
async function remaining(storage: GatewayStorage, suffix: string): Promise<string[]> {
  const left: string[] = [];
  for (const name of ['ended', 'idle', 'live']) {
    if ((await storage.sessions.get(`${name}-${suffix}`)) !== undefined)
      left.push(`session ${name}`);
  }
  for (const name of ['expired', 'live']) {
    // consume() removes the row too, so live ones are re-saved by the caller if needed.
    if ((await storage.pendingSignIns.consume(`${name}-${suffix}`)) !== undefined) {
      left.push(`pending ${name}`);
    }
  }
  return left;
}

/** A finished test sign-in whose trace expires at `expiresAt`, its draft sealed. */
async function storeTrialSignIn(
  storage: GatewayStorage,
  id: string,
  expiresAt: number,
): Promise<void> {
  await storage.trialSignIns.create({
    id,
    stateKey: `state-${id}`,
    actor: 'admin',
    entryId: 'corp',
    status: 'done',
    secrets: JSON.stringify({ draft: { appsecret: 'sealed' } }),
    trace: '{}',
    createdAt: expiresAt - 30 * minute,
    callbackUntil: expiresAt - 20 * minute,
    expiresAt,
  });
}

const silent = pino({ level: 'silent' });

describe('the expiry sweep', () => {
  test('a gateway deletes expired sessions and pending sign-ins when it starts, keeping live ones', async () => {
    await withSqlStorage(async (storage) => {
      const now = Date.UTC(2030, 0, 1);
      await storeRows(storage, now, 'start');
      const config = loadConfig({ SSOGATE_DATABASE_URL: 'sqlite::memory:' });
      const app = await buildApp(createGateway(config, storage, { clock: () => now }), {
        logger: silent,
      });
      try {
        // The sweep runs beside the start; wait for it, at most 5 s.
        await waitUntil(async () => (await storage.sessions.get('ended-start')) === undefined, {
          message: 'the sweep to delete the ended session',
          timeoutMs: 5000,
        });
        assert.deepEqual(await remaining(storage, 'start'), ['session live', 'pending live']);
      } finally {
        await app.close();
      }
    });
  });

  test('of several workers only the one given the sweep runs it', async () => {
    await withSqlStorage(async (storage) => {
      const now = Date.UTC(2030, 0, 1);
      await storeRows(storage, now, 'workers');
      const config = loadConfig({ SSOGATE_DATABASE_URL: 'sqlite::memory:' });
      const start = (sweeps: boolean) =>
        buildApp(createGateway(config, storage, { clock: () => now }), {
          logger: silent,
          worker: { sweeps },
        });
      // Closing waits for a sweep under way, so a sweep that ran has finished by then.
      await (await start(false)).close();
      assert.equal((await storage.sessions.get('ended-workers'))?.idHash, 'ended-workers');
      await (await start(true)).close();
      assert.deepEqual(await remaining(storage, 'workers'), ['session live', 'pending live']);
    });
  });

  test('then runs again every interval, by the injected clock, until stopped', async () => {
    await withSqlStorage(async (storage) => {
      let now = Date.UTC(2030, 0, 1);
      mock.timers.enable({ apis: ['setInterval'] });
      try {
        const sweep = startExpirySweep({
          storage,
          clock: () => now,
          idleMs,
          log: silent,
          intervalMs: 5 * minute,
        });
        await sweep.settled();
        // Rows that are over only at the next tick's time.
        await storeRows(storage, now + 5 * minute, 'later');
        now += 5 * minute;
        mock.timers.tick(5 * minute);
        await sweep.settled();
        assert.deepEqual(await remaining(storage, 'later'), ['session live', 'pending live']);

        await sweep.stop();
        await storeRows(storage, now, 'stopped');
        mock.timers.tick(10 * minute);
        await sweep.settled();
        assert.deepEqual(await remaining(storage, 'stopped'), [
          'session ended',
          'session idle',
          'session live',
          'pending expired',
          'pending live',
        ]);
      } finally {
        mock.timers.reset();
      }
    });
  });

  test("the OpenID Provider's grants end in the sweep whose turn it was, not in one that skipped", async () => {
    await withSqlStorage(async (storage) => {
      let ended = 0;
      const endOverGrants = () => Promise.resolve(++ended);
      const ours = startExpirySweep({
        storage,
        clock: Date.now,
        idleMs,
        log: silent,
        endOverGrants,
      });
      await ours.settled();
      await ours.stop();
      assert.equal(ended, 1);
      // Another instance sweeping now: this one skips the round, grants included.
      const skipped = { ...storage, sweepExpired: () => Promise.resolve(undefined) };
      const theirs = startExpirySweep({
        storage: skipped,
        clock: Date.now,
        idleMs,
        log: silent,
        endOverGrants,
      });
      await theirs.settled();
      await theirs.stop();
      assert.equal(ended, 1);
    });
  });

  test('test sign-ins go a day after their trace expired, not before', async () => {
    await withSqlStorage(async (storage) => {
      const now = Date.UTC(2030, 0, 1);
      await storeTrialSignIn(storage, 'long-over', now - keptAfterExpiryMs - 1);
      // Still read as "expired" (410) rather than "unknown" (404).
      await storeTrialSignIn(storage, 'just-over', now - minute);
      await storeTrialSignIn(storage, 'readable', now + minute);
      const sweep = startExpirySweep({ storage, clock: () => now, idleMs, log: silent });
      await sweep.settled();
      await sweep.stop();
      const left: string[] = [];
      for (const id of ['long-over', 'just-over', 'readable']) {
        if ((await storage.trialSignIns.get(id)) !== undefined) left.push(id);
      }
      assert.deepEqual(left, ['just-over', 'readable']);
    });
  });
});
