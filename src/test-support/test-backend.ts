import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';

/**
 * One suite, every backend. Every test that opens storage
 * asks here for its settings, so the same tests run on embedded SQLite by
 * default and on PostgreSQL + Redis when CI sets:
 *
 * - SSOGATE_TEST_DATABASE_URL: an admin URL (postgres://postgres@127.0.0.1:5432/postgres);
 *   each backend gets a fresh database `ssogate_t_<random>`, dropped by cleanup.
 * - SSOGATE_TEST_REDIS_URL: each backend gets its own key prefix `t<random>:`,
 *   whose keys cleanup deletes.
 *
 * Random names keep parallel test files, and parallel CI runs, apart.
 */

export type TestBackendName = 'sqlite' | 'postgres' | 'postgres+redis' | 'sqlite+redis';

export interface TestBackend {
  readonly name: TestBackendName;
  /** SSOGATE_* settings to merge into the configuration. */
  readonly env: Readonly<Record<string, string>>;
  /** Drops the database and deletes the Redis keys; safe to call more than once. */
  cleanup(): Promise<void>;
}

export interface TestBackendOptions {
  /**
   * On SQLite, this file rather than a memory database (for a test that opens
   * the same storage twice). Ignored on PostgreSQL.
   */
  readonly sqliteFile?: string;
}

/** The backend the suite runs on, from the environment; for names and skips. */
export function testBackendName(env: NodeJS.ProcessEnv = process.env): TestBackendName {
  const database = nonEmpty(env.SSOGATE_TEST_DATABASE_URL) === undefined ? 'sqlite' : 'postgres';
  return nonEmpty(env.SSOGATE_TEST_REDIS_URL) === undefined ? database : `${database}+redis`;
}

/** The `skip` option of a suite that needs Redis from the suite's backend. */
export const needsRedis: string | false = testBackendName().endsWith('+redis')
  ? false
  : 'needs SSOGATE_TEST_REDIS_URL (.ci/run sets it)';

/** The `skip` option of a suite of several instances sharing PostgreSQL and Redis. */
export const needsPostgresAndRedis: string | false =
  testBackendName() === 'postgres+redis'
    ? false
    : 'needs SSOGATE_TEST_DATABASE_URL and SSOGATE_TEST_REDIS_URL (.ci/run sets both)';

/** A fresh, empty backend for one test or fixture. */
export async function testBackend(options: TestBackendOptions = {}): Promise<TestBackend> {
  const adminUrl = nonEmpty(process.env.SSOGATE_TEST_DATABASE_URL);
  const redisUrl = nonEmpty(process.env.SSOGATE_TEST_REDIS_URL);
  const env: Record<string, string> = {};
  const cleanups: (() => Promise<void>)[] = [];

  if (adminUrl === undefined) {
    env.SSOGATE_DATABASE_URL =
      options.sqliteFile === undefined ? 'sqlite::memory:' : `sqlite:${options.sqliteFile}`;
  } else {
    const database = `ssogate_t_${randomBytes(8).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${database}`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    env.SSOGATE_DATABASE_URL = url.toString();
    cleanups.push(() => adminQuery(adminUrl, `drop database if exists ${database} with (force)`));
  }

  if (redisUrl !== undefined) {
    const prefix = `t${randomBytes(8).toString('hex')}:`;
    env.SSOGATE_REDIS_URL = redisUrl;
    env.SSOGATE_REDIS_PREFIX = prefix;
    cleanups.push(() => deleteRedisKeys(redisUrl, prefix));
  }

  let cleaned: Promise<void> | undefined;
  return {
    name: testBackendName(),
    env,
    cleanup() {
      cleaned ??= (async () => {
        const results = await Promise.allSettled(cleanups.map((run) => run()));
        const failed = results.find((result) => result.status === 'rejected');
        if (failed !== undefined) throw failed.reason;
      })();
      return cleaned;
    },
  };
}

/** Runs `run` with a fresh backend's settings and cleans the backend up afterwards. */
export async function withTestBackend<T>(
  run: (backend: TestBackend) => Promise<T>,
  options: TestBackendOptions = {},
): Promise<T> {
  const backend = await testBackend(options);
  try {
    return await run(backend);
  } finally {
    await backend.cleanup();
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** One statement on a one-off connection (CREATE/DROP DATABASE cannot run in a pool's transaction). */
async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
