import { dirname } from 'node:path';
import type { Config } from '../foundation/config/load-config.js';
import { privateDirectory } from '../foundation/crypto/private-files.js';
import { createSecretBox } from '../foundation/crypto/secret-box.js';
import type { SecretBox } from '../foundation/crypto/secret-box.js';
import { loadOrCreateSecretKey } from '../foundation/crypto/secret-key.js';
import { announcingUserStore, heldAnnouncements } from '../foundation/storage/announcing-stores.js';
import { openSqliteStorage } from '../foundation/storage/index.js';
import { createSessionWriteAhead } from '../foundation/storage/session-write-ahead.js';
import type { HeldBackSessions } from '../foundation/storage/redis/redis-session-store.js';
import type { FeatureTables } from '../foundation/storage/feature-tables.js';
import type { Storage } from '../foundation/storage/types.js';
import type { ProviderStores } from '../features/openid-provider/storage/provider-stores.js';
import {
  createProviderStores,
  providerTables,
} from '../features/openid-provider/storage/provider-stores.js';
import type { SecondFactorStores } from '../features/second-factor/storage/second-factor-stores.js';
import {
  createSecondFactorStores,
  secondFactorTables,
} from '../features/second-factor/storage/second-factor-stores.js';
import type { TrialSignInStores } from '../features/trial-sign-in/storage/trial-stores.js';
import {
  createTrialSignInStores,
  trialSignInTables,
} from '../features/trial-sign-in/storage/trial-stores.js';

/** The gateway's storage: the kernel's stores, and those of the features' own tables. */
export type GatewayStorage = Storage & ProviderStores & TrialSignInStores & SecondFactorStores;

/**
 * The tables features own (foundation/storage/feature-tables.ts), migrated
 * and swept with the kernel's: the test sign-ins', the OpenID Provider's
 * and the second factors'.
 */
export const featureTables: readonly FeatureTables[] = [
  trialSignInTables,
  providerTables,
  secondFactorTables,
];

/**
 * Opens the configured storage, migrated, with app secrets sealed by the
 * configured key: SQLite or PostgreSQL for the durable data, and, with
 * SSOGATE_REDIS_URL (or SSOGATE_REDIS_SENTINELS), Redis for sessions, pending sign-ins, rate-limit counters
 * and change notices shared by several instances; beside the kernel's stores,
 * those of the features' own tables, over the same database.
 */
export async function openStorage(config: Config): Promise<GatewayStorage> {
  const { kernel, secretBox } = await openKernel(config);
  return {
    ...kernel,
    ...createTrialSignInStores(kernel.kysely, secretBox),
    ...createProviderStores(kernel.kysely, secretBox),
    ...createSecondFactorStores(kernel.kysely, secretBox),
  };
}

/** The storage kernel, with the features' tables migrated, and the box that seals its secrets. */
async function openKernel(config: Config): Promise<{ kernel: Storage; secretBox: SecretBox }> {
  // The data directory holds the key and the SQLite file: 0700 (a looser
  // one is tightened). A database file elsewhere gets 0600 but its existing
  // directory, which may be shared, is left as it is.
  const { database } = config;
  if (database.kind === 'sqlite' && dirname(database.filename) === config.dataDir)
    await privateDirectory(config.dataDir);
  const key = await loadOrCreateSecretKey({
    dataDir: config.dataDir,
    ...(config.secretKey === undefined ? {} : { configuredKey: config.secretKey }),
  });
  const secretBox = createSecretBox(key);
  // The PostgreSQL and Redis clients (pg, ioredis) are loaded only when
  // configured: a gateway on SQLite alone never holds their code in memory.
  const base =
    config.database.kind === 'sqlite'
      ? await openSqliteStorage({
          filename: config.database.filename,
          secretBox,
          features: featureTables,
        })
      : await (
          await import('../foundation/storage/postgres/open-postgres-storage.js')
        ).openPostgresStorage({
          url: config.database.url,
          secretBox,
          features: featureTables,
          // With Redis, the sessions and their announcements are there instead.
          announceRevocations: config.redis === undefined,
        });
  if (config.redis === undefined) return { kernel: base, secretBox };
  let redis;
  try {
    const { openRedisStores } = await import('../foundation/storage/redis/open-redis-stores.js');
    redis = await openRedisStores({ target: config.redis, prefix: config.redisPrefix });
  } catch (error) {
    await base.close();
    throw error;
  }
  const shared = redis;
  const writeAhead = createSessionWriteAhead(base.kysely, shared.sessions);
  const kernel: Storage = {
    ...base,
    sessions: shared.sessions,
    users: announcingUserStore(base.users, shared.revocations),
    pendingSignIns: shared.pendingSignIns,
    rateLimits: shared.rateLimits,
    failureCounts: shared.rateLimits,
    changes: shared.changes,
    // Redis has no part in the SQL transaction: the sessions of the unit are
    // held back and written once it has committed, so a failed commit leaves
    // no session in Redis and the browser's earlier one still there. The
    // transaction records them in SQL too, so that a process dying before
    // it writes them does not lose them (session-write-ahead.ts). So are
    // the announcements of its user changes (a sign-in's new attributes):
    // sent before the commit, another instance could read the user again
    // before it and remember the old row; not sent, it would go on using
    // what it remembered until its next read.
    async writeTogether(work) {
      let held: HeldBackSessions | undefined;
      let announcements = heldAnnouncements(shared.revocations);
      const result = await base.writeTogether(async (stores) => {
        // Afresh for each run of `work`, in case a run is tried again.
        held = shared.heldBackSessions();
        announcements = heldAnnouncements(shared.revocations);
        const value = await work({
          ...stores,
          sessions: held.sessions,
          users: announcingUserStore(stores.users, announcements.later),
        });
        await writeAhead.record(stores.sessions, held.created());
        return value;
      });
      if (held !== undefined) {
        // Should either fail, the error fails the sign-in (no cookie); its
        // sessions are then written by the sweep from their records.
        await held.apply();
        await writeAhead.settle(held.created());
      }
      await announcements.send();
      return result;
    },
    async sweepExpired(now, idleBefore) {
      const recovered = await writeAhead.recover(now);
      const counts = await base.sweepExpired(now, idleBefore);
      return counts === undefined ? undefined : { ...counts, sessionsRecovered: recovered };
    },
    // Sessions live in Redis, shared with other instances: their revocations
    // (and those of users, announced above) travel through Redis.
    revocations: shared.revocations,
    // Entry changes of other processes arrive over Redis pub/sub instead.
    otherWritersVersion: undefined,
    async ping() {
      await Promise.all([base.ping(), shared.ping()]);
    },
    async close() {
      await shared.close();
      await base.close();
    },
  };
  return { kernel, secretBox };
}
