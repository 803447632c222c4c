/**
 * CPU time per GET /_sso/auth (a valid, remembered session) of a gateway
 * of one process against one of two workers (SSOGATE_WORKERS=2), in turns
 * in one run, so both meet the same machine. The figure is the utime +
 * stime of the gateway's processes (the primary and its workers) over a
 * turn, divided by the checks answered; requests a second are printed too,
 * though on a busy machine they move with other work.
 *
 *   npm run build:test && node build/bench/workers-cpu.js
 *
 * The load is undici from this process over keep-alive connections
 * (BENCH_CONNECTIONS, 32), spread over the workers as they connect. Knobs:
 * ROUNDS (5, the first left out as warm-up), SECS (4).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { benchGateway, connections, cpuMs, signedInCookie } from './throughput.js';

const rounds = Number(process.env.ROUNDS ?? 5);
const seconds = Number(process.env.SECS ?? 4);
/** The process and its children (a primary's workers). */
function processTree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '')
    .map(Number);
  return [pid, ...children];
}

/** CPU seconds (user + system) the processes have used so far. */
function cpuSeconds(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0) / 1000;
}

/** Checks with the cookie for `seconds`, each connection one request after another. */
async function load(url: string, cookie: string): Promise<number> {
  const pool = new Pool(url, { connections });
  const until = Date.now() + seconds * 1000;
  let answered = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const response = await pool.request({
          path: '/_sso/auth',
          method: 'GET',
          headers: { cookie },
        });
        await response.body.dump();
        if (response.statusCode !== 204) throw new Error(`answered ${response.statusCode}`);
        answered += 1;
      }
    }),
  );
  await pool.close();
  return answered;
}

interface Turn {
  readonly microsPerCheck: number;
  readonly perSecond: number;
}

async function turn(workers: number, env: Record<string, string>, cookie: string): Promise<Turn> {
  const gateway = await benchGateway({ ...env, SSOGATE_WORKERS: String(workers) });
  try {
    // Each worker remembers the session before the measured turn.
    await load(gateway.url, cookie);
    const pids = processTree(gateway.pid ?? 0);
    const cpuBefore = cpuSeconds(pids);
    const started = process.hrtime.bigint();
    const answered = await load(gateway.url, cookie);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = cpuSeconds(pids) - cpuBefore;
    return { microsPerCheck: (cpu / answered) * 1e6, perSecond: answered / elapsed };
  } finally {
    await gateway.stop();
  }
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-workers-'));
  const env = { SSOGATE_DATA_DIR: dir, SSOGATE_SECRET_KEY: randomBytes(32).toString('base64') };
  try {
    const cookie = await signedInCookie(env, {
      userId: 'bench',
      sourceEntryId: null,
      email: 'bench@example.test',
    });
    const turns = new Map<number, Turn[]>([
      [1, []],
      [2, []],
    ]);
    for (let round = 1; round <= rounds; round += 1) {
      for (const [workers, results] of turns) {
        const result = await turn(workers, env, cookie);
        process.stdout.write(
          `round ${round}, ${workers} worker(s): ${result.microsPerCheck.toFixed(1)} µs CPU a check, ${result.perSecond.toFixed(0)} checks/s\n`,
        );
        if (round > 1) results.push(result);
      }
    }
    const [one, two] = [turns.get(1) ?? [], turns.get(2) ?? []];
    const cpu = (results: Turn[]) => median(results.map((result) => result.microsPerCheck));
    const rate = (results: Turn[]) => median(results.map((result) => result.perSecond));
    process.stdout.write(
      `median, rounds 2-${rounds}: CPU a check ×${(cpu(two) / cpu(one)).toFixed(2)} with 2 workers (${cpu(one).toFixed(1)} → ${cpu(two).toFixed(1)} µs); checks/s ×${(rate(two) / rate(one)).toFixed(2)}\n`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
