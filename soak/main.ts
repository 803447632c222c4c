#!/usr/bin/env node
/**
 * `npm run soak`: the gateway, built as an operator runs it, under a mixed
 * load and a schedule of faults, on SQLite (one instance) and on PostgreSQL
 * + Redis (three instances), then checked against its invariants. Writes
 * `soak-reports/<time>/report.md` and `report.json`; exits non-zero on a
 * broken invariant or an unexplained 5xx (docs/reliability.md#soak).
 *
 * SOAK_SECONDS (default 600) per backend; SOAK_BACKEND sqlite, postgres,
 * pg-redis, both (sqlite and postgres) or all (the three); SOAK_REDIS
 * single (default: one redis-server, restarted) or sentinel (a master, a
 * replica and three Sentinels, failed over) for postgres. pg-redis is
 * PostgreSQL with a streaming replica and Redis behind Sentinels, each
 * failed over under the load.
 */
import { join, resolve } from 'node:path';
import type { Backend, BackendRun } from './report.js';
import { verdictOf, writeReport } from './report.js';
import { runBackend } from './backend-run.js';

async function main(): Promise<number> {
  const seconds = Number(process.env.SOAK_SECONDS ?? 600);
  const choice = process.env.SOAK_BACKEND ?? 'both';
  if (!Number.isInteger(seconds) || seconds < 20)
    throw new Error('SOAK_SECONDS must be a whole number, 20 or more');
  const choices = new Map<string, readonly Backend[]>([
    ['sqlite', ['sqlite']],
    ['postgres', ['postgres']],
    ['pg-redis', ['pg-redis']],
    ['both', ['sqlite', 'postgres']],
    ['all', ['sqlite', 'postgres', 'pg-redis']],
  ]);
  const backends = choices.get(choice);
  if (backends === undefined)
    throw new Error('SOAK_BACKEND must be sqlite, postgres, pg-redis, both or all');
  const redis = process.env.SOAK_REDIS ?? 'single';
  if (redis !== 'single' && redis !== 'sentinel')
    throw new Error('SOAK_REDIS must be single or sentinel');
  const root = resolve(process.cwd());
  const reportRoot = join(root, 'soak-reports');
  const logDir = join(reportRoot, 'logs', new Date().toISOString().replaceAll(':', '-'));
  const runs: BackendRun[] = [];
  for (const backend of backends) {
    process.stdout.write(`soak: ${backend} for ${seconds} s\n`);
    runs.push(
      await runBackend(backend, {
        seconds,
        workers: Number(process.env.SOAK_WORKERS ?? 4),
        redis,
        mainScript: join(root, 'dist', 'main.js'),
        cliScript: join(root, 'dist', 'cli', 'ssogate.js'),
        logDir,
      }),
    );
  }
  const folder = await writeReport(reportRoot, runs);
  let failed = false;
  for (const run of runs) {
    const reasons = verdictOf(run);
    failed ||= reasons.length > 0;
    process.stdout.write(
      `soak: ${run.backend}: ${reasons.length === 0 ? 'pass' : `FAIL: ${reasons.join('; ')}`}\n`,
    );
  }
  process.stdout.write(`soak: report in ${folder}/report.md, logs in ${logDir}\n`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
