import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import type { ExampleUser } from '../src/example-server/index.js';
import { exampleEntries, startExampleServer } from '../src/example-server/index.js';
import { startEchoUpstream } from '../src/features/reverse-proxy/test-support/upstream-fixture.js';
import { freePort } from '../src/test-support/free-port.js';
import { CallbacksInFlight } from './callbacks-in-flight.js';
import { canaryIssuedPrefix, runFaultSchedule } from './fault-schedule.js';
import type { StoreAccess } from './invariants.js';
import {
  endStatesOf,
  logsClean,
  noCrashes,
  noStalePending,
  signInsHaveSessionAndEvent,
  signInsResume,
  signOutsHold,
  usersWhole,
} from './invariants.js';
import type { LoadWorld } from './load-mix.js';
import { UserPool, runLoad, signIn } from './load-mix.js';
import { OutcomeLog } from './outcomes.js';
import { GatewayInstance, OwnPostgres, OwnRedis } from './processes.js';
import { SentinelGroup } from '../src/foundation/storage/redis/test-support/sentinel-group.js';
import {
  postgresServerPrograms,
  ReplicatedPostgres,
} from '../src/test-support/postgres-replication.js';
import type { Backend, BackendRun } from './report.js';
import { sampleResources } from './resources.js';
import { HeldSessions } from './sessions-held.js';

export interface RunSettings {
  readonly seconds: number;
  readonly workers: number;
  /** The built gateway (dist/main.js) and its command line (dist/cli/ssogate.js). */
  readonly mainScript: string;
  readonly cliScript: string;
  /** Where the instances' logs are kept. */
  readonly logDir: string;
  /**
   * The postgres backend's Redis: one redis-server, restarted as a fault, or
   * a master, a replica and three Sentinels, failed over as a fault. The
   * pg-redis backend always has the Sentinels.
   */
  readonly redis: 'single' | 'sentinel';
}

/** The app secret every entry carries: any log line holding it is a leak. */
const canarySecret = `SOAKCANARYSECRET${randomBytes(12).toString('hex')}`;
const pendingLifetimeMs = 60_000;

function exampleUser(username: string): ExampleUser {
  return {
    username,
    password: `${username}-password`,
    userId: username,
    name: `${username} Soak`,
    email: `${username}@example.test`,
    department: 'Soak',
  };
}

/** A database of the run's own on the machine's PostgreSQL, when a cluster of its own cannot start. */
async function fallbackDatabase(): Promise<string> {
  const admin =
    process.env.SOAK_FALLBACK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `ssogate_soak_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A primary and its streaming replica of the run's own, replicating
 * synchronously: the promotion loses no commit an instance was told of, as
 * docs/operations.md#a-replicated-postgresql asks of a replicated setup.
 */
async function startPostgresPair(): Promise<ReplicatedPostgres> {
  const programs = postgresServerPrograms();
  if (programs === undefined)
    throw new Error(
      'SOAK_BACKEND=pg-redis needs PostgreSQL server programs (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql',
    );
  return ReplicatedPostgres.start(programs, {
    settings: ['max_connections=200'],
    synchronous: true,
  });
}

/** One backend's soak: start everything, drive the load under the faults, check, stop. */
export async function runBackend(backend: Backend, settings: RunSettings): Promise<BackendRun> {
  const dir = await mkdtemp(join(tmpdir(), `ssogate-soak-${backend}-`));
  const events: string[] = [];
  const skipped: string[] = [];
  const log = new OutcomeLog();
  let postgres: OwnPostgres | undefined;
  let redis: OwnRedis | undefined;
  let sentinels: SentinelGroup | undefined;
  let postgresPair: ReplicatedPostgres | undefined;
  const env: Record<string, string> = {};
  if (backend === 'pg-redis') {
    postgresPair = await startPostgresPair();
    // Both servers, libpq style: the instances find the writable one.
    env.SSOGATE_DATABASE_URL = `${postgresPair.url(postgresPair.primary, postgresPair.replica)}?target_session_attrs=read-write`;
    events.push(
      `${new Date().toISOString()} PostgreSQL: a primary (port ${postgresPair.primary.port}) and its streaming replica (port ${postgresPair.replica.port}), synchronous`,
    );
  } else if (backend === 'postgres') {
    const created = OwnPostgres.create(await freePort());
    if (typeof created === 'string') {
      skipped.push(
        `PostgreSQL restart: a cluster of the run's own could not start (${created.trim().slice(0, 300)}); the machine's PostgreSQL is used and never restarted`,
      );
      env.SSOGATE_DATABASE_URL = await fallbackDatabase();
    } else {
      postgres = created;
      env.SSOGATE_DATABASE_URL = created.url;
    }
  } else {
    env.SSOGATE_DATABASE_URL = `sqlite:${join(dir, 'ssogate.db')}`;
  }
  const databaseUrl = env.SSOGATE_DATABASE_URL;
  if (backend !== 'sqlite') {
    if (settings.redis === 'sentinel' || backend === 'pg-redis') {
      sentinels = new SentinelGroup();
      await sentinels.start();
      env.SSOGATE_REDIS_SENTINELS = sentinels.sentinelSetting;
      env.SSOGATE_REDIS_MASTER = sentinels.masterName;
      events.push(
        `${new Date().toISOString()} Redis: a master, a replica and three Sentinels (${sentinels.sentinelSetting})`,
      );
    } else {
      redis = new OwnRedis(await freePort());
      await redis.start();
      env.SSOGATE_REDIS_URL = redis.url;
    }
  } else {
    skipped.push('Redis and PostgreSQL restarts: SQLite has neither');
  }

  const poolSize = Math.max(400, settings.seconds * 10);
  const userNames = Array.from({ length: poolSize }, (_, index) => `soak${index}`);
  const editedUsers = ['editor0', 'editor1', 'editor2'];
  const example = await startExampleServer({
    users: [...userNames, ...editedUsers].map(exampleUser),
    clients: [{ appid: 'soak-app', secret: canarySecret }],
    issuedPrefix: canaryIssuedPrefix,
  });
  const upstream = await startEchoUpstream();
  const presets = exampleEntries(example.url, { appid: 'soak-app', secret: canarySecret });
  const provisioned = [
    { ...presets.getStyle, isDefault: true },
    presets.standard,
    presets.jsonStyle,
    presets.wecom,
  ];
  const entriesFile = join(dir, 'entries.json');
  await writeFile(entriesFile, JSON.stringify({ entries: provisioned }));

  const ports = await Promise.all(
    Array.from({ length: backend === 'sqlite' ? 1 : 3 }, () => freePort()),
  );
  const publicOrigin = `http://127.0.0.1:${ports[0] ?? 0}`;
  Object.assign(env, {
    SSOGATE_PUBLIC_URL: publicOrigin,
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SSOGATE_ADMIN_PASSWORD: `soak-admin-${randomBytes(8).toString('hex')}`,
    SSOGATE_ENTRIES_FILE: entriesFile,
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    SSOGATE_DATA_DIR: join(dir, 'data'),
    SSOGATE_UPSTREAM: upstream.url,
    SSOGATE_LOG_LEVEL: 'info',
    SSOGATE_SIGN_INS_PER_MINUTE: '100000',
    SSOGATE_PENDING_SIGN_IN_MINUTES: String(pendingLifetimeMs / 60_000),
    SSOGATE_SHUTDOWN_TIMEOUT_SECONDS: '10',
  });
  await mkdir(settings.logDir, { recursive: true });
  const instances = ports.map(
    (port, index) =>
      new GatewayInstance(
        `${backend}-${index + 1}`,
        port,
        settings.mainScript,
        env,
        join(settings.logDir, `${backend}-${index + 1}.log`),
      ),
  );
  try {
    // Started together: the migration runs once, under its lock.
    await Promise.all(instances.map((instance) => instance.start()));
    events.push(`${new Date().toISOString()} ${instances.length} instance(s) started`);
    // The API token made as an operator makes one: the command line, same configuration.
    const token = spawnSync(
      process.execPath,
      [settings.cliScript, 'token', 'create', '--name', 'soak'],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      },
    );
    const apiToken = token.stdout.trim();
    if (token.status !== 0 || apiToken === '')
      throw new Error(`ssogate token create failed: ${token.stderr}`);

    const sessions = new HeldSessions();
    const entries: Record<string, Record<string, unknown>> = {};
    for (const entry of provisioned) {
      // Edits leave the secret out, so the stored one is kept.
      const rest: Record<string, unknown> = { ...entry };
      delete rest.appsecret;
      entries[String(rest.id)] = rest;
    }
    const world: LoadWorld = {
      publicOrigin,
      exampleUrl: example.url,
      balance: () => {
        const live = instances.filter((instance) => instance.up);
        const pool = live.length === 0 ? instances : live;
        return pool[Math.floor(Math.random() * pool.length)]?.url ?? publicOrigin;
      },
      apiToken,
      entryIds: provisioned.map((entry) => String(entry.id)),
      entries,
      editedUsers,
      users: new UserPool(userNames),
      sessions,
      log,
      callbacks: new CallbacksInFlight(),
      sessionCookieName: 'ssogate_session',
    };
    // The users only the admin API edits sign in once, before the load.
    const editors = {
      ...world,
      users: new UserPool(editedUsers),
      entryIds: ['example-get'],
      sessions: new HeldSessions(),
    };
    for (const name of editedUsers) await signIn(editors, name);

    const sampler = sampleResources(instances, 5000);
    const startedAt = Date.now();
    const until = startedAt + settings.seconds * 1000;
    const trimmer = setInterval(() => {
      example.requests.length = 0;
      upstream.seen.length = 0;
    }, 5000);
    await Promise.all([
      runLoad(world, settings.workers, until),
      runFaultSchedule(
        {
          example,
          instances,
          postgres,
          postgresPair,
          redis,
          sentinels,
          log,
          events,
          callbacks: world.callbacks,
        },
        startedAt,
        settings.seconds,
      ),
    ]);
    clearInterval(trimmer);
    const endedAt = Date.now();
    events.push(`${new Date().toISOString()} load ended`);

    // Looked at directly: behind Sentinels, the master they name now; of
    // the PostgreSQL pair, the replica the schedule promoted.
    const access: StoreAccess = {
      databaseUrl:
        postgresPair === undefined ? databaseUrl : postgresPair.url(postgresPair.replica),
      redisUrl:
        sentinels === undefined
          ? env.SSOGATE_REDIS_URL
          : `redis://127.0.0.1:${await sentinels.masterPort()}`,
      redisPrefix: 'ssogate:',
    };

    // Pending sign-ins of the last starts end their lifetime; a restart
    // runs the expiry sweep at once (it also runs every five minutes).
    await delay(pendingLifetimeMs + 5000);
    const first = instances[0];
    if (first === undefined) throw new Error('no instance');
    await first.stop();
    await first.start();
    events.push(`${new Date().toISOString()} ${first.name} restarted for the sweep`);
    let pending = await noStalePending(access, Date.now());
    for (let attempt = 0; attempt < 15 && pending.broken.length > 0; attempt += 1) {
      await delay(2000);
      pending = await noStalePending(access, Date.now());
    }
    // A crashed instance is started again, so the checks below can run; the crash stays on record.
    for (const instance of instances) if (!instance.up) await instance.start();
    const endStates = await endStatesOf(sessions.all, first.url, world.sessionCookieName);
    await sampler.stop();
    const invariants = [
      await signInsHaveSessionAndEvent(access, sessions.all, endStates, new Set(editedUsers)),
      await usersWhole(access),
      pending,
      signOutsHold(sessions.all, endStates, log.violations),
    ];
    if (log.windows.some((window) => window.failover)) invariants.push(signInsResume(log));
    await Promise.all(instances.map((instance) => instance.close()));
    invariants.push(noCrashes(instances.flatMap((instance) => instance.crashes)));
    invariants.push(
      await logsClean(
        instances.map((instance) => instance.logFile),
        ['SOAKCANARY'],
        new Set([apiToken, ...sessions.all.map((session) => session.cookie)]),
      ),
    );
    return {
      backend,
      instances: instances.length,
      seconds: settings.seconds,
      startedAt,
      endedAt,
      log,
      samples: sampler.samples,
      invariants,
      events,
      skipped,
    };
  } finally {
    await Promise.all(instances.map((instance) => instance.close()));
    await example.close();
    await upstream.close();
    await redis?.destroy();
    await sentinels?.stop();
    postgres?.destroy();
    postgresPair?.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}
