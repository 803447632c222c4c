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
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  benchGateway,
  connections,
  nodeServer,
  seconds,
  signedInCookie,
  wrk,
} from './throughput.js';

async function gatewayWithSession(name: string, env: Record<string, string>): Promise<number> {
  const gateway = await benchGateway(env);
  try {
    const cookie = await signedInCookie(env, {
      userId: 'bench',
      sourceEntryId: null,
      email: 'bench@example.test',
    });
    return await wrk(`${gateway.url}/_sso/auth`, cookie);
  } finally {
    await gateway.stop();
    process.stdout.write(`  measured ${name}\n`);
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-'));
  const key = randomBytes(32).toString('base64');
  const results: [string, number][] = [];
  const bare = await nodeServer(
    (port) =>
      `require('node:http').createServer((q, s) => { s.statusCode = 204; s.end(); }).listen(${port}, '127.0.0.1', () => console.log('up'))`,
  );
  results.push(['bare node:http, 204', await wrk(`${bare.url}/`)]);
  bare.child.kill();
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
