/**
 * CPU time of the gateway per session check (`GET /_sso/auth`, nginx's
 * forward-auth call, with a valid cookie) when the original URI falls under
 * an access rule asking for a second factor, next to one under a rule that
 * asks for the sign-in alone and one under no rule: in turns in one run, so
 * that all three meet the same machine. The session holds a second factor
 * given a minute ago, so every check passes (wrk refuses any other answer).
 *
 *   npm run bench:factor
 *
 * One gateway process (SQLite in a temporary folder, or PostgreSQL and
 * Redis with BENCH_DATABASE_URL and BENCH_REDIS_URL), wrk from Debian as
 * the load. The figure is the process's utime + stime over a turn divided
 * by the checks it answered. Knobs: ROUNDS (6, the first left out as
 * warm-up), SECS (3 per turn), BENCH_CONNECTIONS (32).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchGateway, connections, cpuMs, median, signedInCookie, wrkRun } from './throughput.js';

const rounds = Number(process.env.ROUNDS ?? 6);
const secondsPerTurn = Number(process.env.SECS ?? 3);

/** The three kinds of path a check is for, and the rules that cover them. */
const turns = [
  { name: 'no rule', path: '/open/page' },
  { name: 'rule, sign-in alone', path: '/team/page' },
  { name: 'rule, second factor within 8h', path: '/pay/page' },
] as const;

const rules = [
  { path: '/team', users: ['bench'] },
  { path: '/pay', users: ['bench'], factor: 2, within: '8h' },
];

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-factor-'));
  const env: Record<string, string> = {
    SSOGATE_DATA_DIR: dir,
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SSOGATE_ACCESS_RULES: JSON.stringify(rules),
    ...(process.env.BENCH_DATABASE_URL === undefined
      ? {}
      : { SSOGATE_DATABASE_URL: process.env.BENCH_DATABASE_URL }),
    ...(process.env.BENCH_REDIS_URL === undefined
      ? {}
      : {
          SSOGATE_REDIS_URL: process.env.BENCH_REDIS_URL,
          SSOGATE_REDIS_PREFIX: `bench${randomBytes(4).toString('hex')}:`,
        }),
  };
  const gateway = await benchGateway(env);
  const perCheck = new Map<string, number[]>(turns.map((turn) => [turn.name, []]));
  try {
    const pid = gateway.pid;
    if (pid === undefined) throw new Error('the gateway has no pid');
    const cookie = await signedInCookie(
      env,
      { userId: 'bench', sourceEntryId: null, email: 'bench@example.test' },
      Date.now() - 60_000,
    );
    for (let round = 0; round < rounds; round += 1) {
      for (const turn of turns) {
        const before = cpuMs(pid);
        const { requests } = await wrkRun(`${gateway.url}/_sso/auth`, cookie, {
          duration: secondsPerTurn,
          headers: [`X-Forwarded-Uri: ${turn.path}`],
        });
        const microseconds = ((cpuMs(pid) - before) * 1000) / requests;
        if (round > 0) perCheck.get(turn.name)?.push(microseconds);
        process.stdout.write(
          `  round ${round + 1} ${turn.name}: ${microseconds.toFixed(1)} µs of CPU a check\n`,
        );
      }
    }
  } finally {
    await gateway.stop();
    await rm(dir, { recursive: true, force: true });
  }

  const backend = process.env.BENCH_REDIS_URL === undefined ? 'SQLite' : 'PostgreSQL + Redis';
  const reference = median(perCheck.get('rule, sign-in alone') ?? []);
  process.stdout.write(
    `\nGET /_sso/auth, sessions in ${backend}; wrk -t2 -c${connections}, ${rounds - 1} rounds of ` +
      `${secondsPerTurn} s turns after a warm-up round, ${new Date().toISOString()}\n\n` +
      '| the check is for                 | CPU µs a check (median) | ÷ rule, sign-in alone |\n' +
      '| -------------------------------- | ----------------------- | --------------------- |\n',
  );
  for (const turn of turns) {
    const value = median(perCheck.get(turn.name) ?? []);
    process.stdout.write(
      `| ${turn.name.padEnd(32)} | ${value.toFixed(1).padStart(23)} | ${(value / reference).toFixed(2).padStart(21)} |\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
