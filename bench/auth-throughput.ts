/**
 * Requests per second of GET /_sso/auth with a valid session, with sessions
 * in SQLite and in Redis (PostgreSQL for the rest), next to a bare node:http
 * server answering 204, all measured in one run with wrk from Debian.
 *
 *   npm run build:test && node build/bench/auth-throughput.js
 *
 * Needs wrk (apt-get install wrk), and PostgreSQL and Redis on loopback for
 * the second configuration (BENCH_DATABASE_URL, BENCH_REDIS_URL).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openStorage } from '../src/app/open-storage.js';
import { loadConfig } from '../src/config/load-config.js';
import { startGatewayProcess } from '../src/multi-instance/gateway-process.js';
import { createSession } from '../src/sessions/session-service.js';
import { freePort } from '../src/test-support/free-port.js';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function wrk(url: string, cookie?: string): Promise<number> {
  const args = [
    '-t2',
    `-c${connections}`,
    `-d${seconds}s`,
    ...(cookie === undefined ? [] : ['-H', `Cookie: ${cookie}`]),
    url,
  ];
  const { stdout } = await run('wrk', args);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (non2xx !== null) throw new Error(`${url}: ${non2xx[1] ?? '?'} failed responses`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
}

async function bareServer(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [
    '-e',
    `require('node:http').createServer((q, s) => { s.statusCode = 204; s.end(); }).listen(${port}, '127.0.0.1')`,
  ]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

async function gatewayWithSession(name: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const gateway = await startGatewayProcess(port, {
    ...env,
    SSOGATE_LOG_LEVEL: 'warn',
    SSOGATE_ADMIN_PASSWORD: 'bench-admin-password',
  });
  const config = loadConfig(env);
  const storage = await openStorage(config);
  try {
    const { user } = await storage.users.insertIfAbsent(
      { userId: 'bench', sourceEntryId: null, email: 'bench@example.test' },
      Date.now(),
    );
    const sessionId = await createSession(
      {
        sessions: storage.sessions,
        users: storage.users,
        clock: Date.now,
        random: (size) => randomBytes(size),
        idleMs: config.sessionIdleMs,
        lifetimeMs: config.sessionLifetimeMs,
      },
      user,
      null,
      undefined,
    );
    return await wrk(`${gateway.url}/_sso/auth`, `ssogate_session=${sessionId}`);
  } finally {
    await storage.close();
    await gateway.stop();
    process.stdout.write(`  measured ${name}\n`);
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-'));
  const key = randomBytes(32).toString('base64');
  const results: [string, number][] = [];
  const bare = await bareServer();
  results.push(['bare node:http, 204', await wrk(bare.url)]);
  bare.stop();
  results.push([
    '/_sso/auth, sessions in SQLite',
    await gatewayWithSession('sqlite', { SSOGATE_DATA_DIR: dir, SSOGATE_SECRET_KEY: key }),
  ]);
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `ssogate_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    results.push([
      '/_sso/auth, sessions in Redis (PostgreSQL)',
      await gatewayWithSession('redis', {
        SSOGATE_DATA_DIR: dir,
        SSOGATE_SECRET_KEY: key,
        SSOGATE_DATABASE_URL: url.toString(),
        SSOGATE_REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
        SSOGATE_REDIS_PREFIX: `bench${randomBytes(4).toString('hex')}:`,
      }),
    ]);
  } finally {
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  }
  const baseline = results[0]?.[1] ?? 1;
  process.stdout.write(
    `\nwrk -t2 -c${connections} -d${seconds}s, one run, ${new Date().toISOString()}\n`,
  );
  for (const [label, rate] of results) {
    process.stdout.write(
      `${label.padEnd(44)} ${Math.round(rate).toLocaleString('en-US').padStart(9)} req/s  ${(rate / baseline).toFixed(2)}\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
