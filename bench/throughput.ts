/**
 * What the wrk throughput scripts share: the wrk run itself, bare node:http
 * servers in processes of their own, the gateway started as an operator
 * would, and a session made directly in storage.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { openStorage } from '../src/app/open-storage.js';
import { loadConfig } from '../src/foundation/config/load-config.js';
import { startGatewayProcess } from '../src/multi-instance/test-support/gateway-process.js';
import type { GatewayProcess } from '../src/multi-instance/test-support/gateway-process.js';
import { createSession, sessionHash } from '../src/features/sessions/session-service.js';
import { EntryRegistry } from '../src/foundation/entries/entry-registry.js';
import type { NewUser } from '../src/foundation/storage/types.js';
import { freePort } from '../src/test-support/free-port.js';

const run = promisify(execFile);
export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** Requests per second wrk measures at url; any failed response fails the run. */
export async function wrk(url: string, cookie?: string): Promise<number> {
  return (await wrkRun(url, cookie)).rate;
}

/** A wrk run's rate and how many requests it completed. */
export async function wrkRun(
  url: string,
  cookie?: string,
  { duration = seconds, headers = [] }: { duration?: number; headers?: readonly string[] } = {},
): Promise<{ rate: number; requests: number }> {
  const args = [
    '-t2',
    `-c${connections}`,
    `-d${duration}s`,
    ...(cookie === undefined ? [] : ['-H', `Cookie: ${cookie}`]),
    ...headers.flatMap((header) => ['-H', header]),
    url,
  ];
  const { stdout } = await run('wrk', args);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (non2xx !== null) throw new Error(`${url}: ${non2xx[1] ?? '?'} failed responses`);
  return {
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
  };
}

/**
 * A node:http server in a process of its own, so that it does not share an
 * event loop with the bench. `listen` is the script's source given the port;
 * it must print a line once it listens.
 */
export async function nodeServer(
  listen: (port: number) => string,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', listen(port)]);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}`, child };
}

/** The gateway as its own process, on a free port (or the one given), logging only warnings. */
export async function benchGateway(
  env: Record<string, string>,
  port?: number,
): Promise<GatewayProcess> {
  return startGatewayProcess(port ?? (await freePort()), {
    ...env,
    SSOGATE_LOG_LEVEL: 'warn',
    SSOGATE_ADMIN_PASSWORD: 'bench-admin-password',
  });
}

/**
 * A session for user made directly in the storage env configures, as a
 * Cookie header value; with `factorAt`, holding a second factor given then.
 */
export async function signedInCookie(
  env: Record<string, string>,
  profile: NewUser,
  factorAt?: number,
): Promise<string> {
  const config = loadConfig(env);
  const storage = await openStorage(config);
  try {
    const { user } = await storage.users.insertIfAbsent(profile, Date.now());
    const sessionId = await createSession(
      {
        sessions: storage.sessions,
        users: storage.users,
        entries: new EntryRegistry(storage.entries),
        clock: Date.now,
        random: (size) => randomBytes(size),
        idleMs: config.sessionIdleMs,
        lifetimeMs: config.sessionLifetimeMs,
        // A session made, none ended: nothing listens.
        signInEnded: () => Promise.resolve(),
      },
      user,
      null,
      undefined,
    );
    if (factorAt !== undefined) {
      await storage.sessions.recordFactor(
        { idHash: sessionHash(sessionId), userRowId: user.id },
        { method: 'totp', at: factorAt },
      );
    }
    return `ssogate_session=${sessionId}`;
  } finally {
    await storage.close();
  }
}

/** Clock ticks a second of /proc/PID/stat's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** CPU milliseconds (user + system, every thread) the process has used so far. */
export function cpuMs(pid: number): number {
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
}

/** The process's resident memory now, in MiB (VmRSS). */
export function rssMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib ?? Number.NaN) / 1024;
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * The settings of a gateway signing users in on loopback as fast as a
 * benchmark asks: its data folder and public URL, the example servers
 * allowed, and the start limits meant for one address lifted.
 */
export function signInBenchSettings(dir: string, gatewayUrl: string): Record<string, string> {
  return {
    SSOGATE_DATA_DIR: dir,
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SSOGATE_PUBLIC_URL: gatewayUrl,
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    SSOGATE_SIGN_INS_PER_MINUTE: '100000',
    SSOGATE_PENDING_SIGN_INS_MAX: '10000000',
  };
}
