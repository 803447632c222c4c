import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test-support/free-port.js';

/** A gateway started as its own process with `node main.js`, as an operator runs it. */
export interface GatewayProcess {
  readonly url: string;
  /** The process id (the benchmarks read its CPU time). */
  readonly pid: number | undefined;
  readonly output: string[];
  stop(): Promise<void>;
  /** Sends the signal and resolves the exit code once the process has exited. */
  signal(name: NodeJS.Signals): Promise<number | null>;
}

const mainScript = fileURLToPath(new URL('../../main.js', import.meta.url));

/**
 * The settings every instance of a multi-instance test shares: one secret
 * key, entries from `entriesFile`, the example server on loopback allowed.
 */
export function instanceSettings(dir: string, entriesFile: string): Record<string, string> {
  return {
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SSOGATE_ADMIN_PASSWORD: 'multi-instance-admin',
    SSOGATE_ENTRIES_FILE: entriesFile,
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    SSOGATE_DATA_DIR: dir,
    SSOGATE_LOG_LEVEL: 'warn',
  };
}

/** The settings of gateways sharing the SQLite file of `dir` (and its secret key), without Redis. */
export function sharedFileSettings(dir: string): Record<string, string> {
  return {
    SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'ssogate.db')}`,
    SSOGATE_REDIS_URL: '',
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
  };
}

/** A gateway process on a free port, on the shared file of `dir` (`settings`: sharedFileSettings). */
export async function startProcessOnSharedFile(
  dir: string,
  settings: Record<string, string>,
): Promise<GatewayProcess> {
  const port = await freePort();
  return startGatewayProcess(port, {
    ...settings,
    SSOGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SSOGATE_DATA_DIR: dir,
    SSOGATE_LOG_LEVEL: 'warn',
  });
}

export async function startGatewayProcess(
  port: number,
  env: Record<string, string>,
): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, [mainScript], {
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      SSOGATE_PORT: String(port),
      SSOGATE_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    // Generous for a machine busy with other work; a gateway that never
    // starts is stopped, or its pipes would keep the test process alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway on ${port} did not start:\n${output.join('')}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      if (output.join('').includes('ssogate listens on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway on ${port} exited with ${String(code)}:\n${output.join('')}`));
    });
  });
  // A process ended by a signal has no exit code, only a signal code: either
  // means it has exited, and its 'exit' event will not come again.
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const exited = new Promise<number | null>((resolve) => {
    if (hasExited()) resolve(child.exitCode);
    else
      child.once('exit', (code) => {
        resolve(code);
      });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    output,
    signal(name) {
      child.kill(name);
      return exited;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (hasExited()) {
          resolve();
          return;
        }
        child.once('exit', () => {
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
