import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait-until.js';

/** The first of `paths` that runs with `versionArgs`: a proxy installed from Debian's packages. */
export function findBinary(
  paths: readonly string[],
  versionArgs: readonly string[],
): string | undefined {
  return paths.find((path) => spawnSync(path, versionArgs).status === 0);
}

/**
 * Why a suite of a proxy is skipped: CI installs it (.ci/run), so only
 * elsewhere does a missing binary skip the suite rather than fail it.
 */
export function proxySkip(binary: string | undefined, install: string): string | false {
  return binary === undefined && process.env.CI !== 'true' ? install : false;
}

export interface RunningProxy {
  /** The proxy's own temporary directory, holding its configuration. */
  readonly dir: string;
  stop(): Promise<void>;
}

interface ProxyStart {
  /** For the error of a start that fails: `nginx`, `caddy`. */
  readonly name: string;
  readonly binary: string;
  /** The configuration file's name in the directory, and its text (made for the directory). */
  readonly config: { readonly file: string; readonly text: (dir: string) => string };
  /** The command line, the directory given. */
  readonly args: (dir: string) => readonly string[];
  readonly env?: (dir: string) => NodeJS.ProcessEnv;
  /** A URL that answers once the proxy listens. */
  readonly readyUrl: string;
}

/**
 * A proxy (nginx, Caddy) in the foreground, with its configuration in a
 * temporary directory of its own; resolves once `readyUrl` answers, and
 * fails with the proxy's standard error if it exits or does not answer
 * within ten seconds. `stop` ends the process and removes the directory.
 */
export async function startProxy(start: ProxyStart): Promise<RunningProxy> {
  const dir = await mkdtemp(join(tmpdir(), `ssogate-${start.name}-`));
  await writeFile(join(dir, start.config.file), start.config.text(dir));
  const child: ChildProcess = spawn(start.binary, start.args(dir), {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: start.env?.(dir) ?? process.env,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      async () => {
        const answered = await fetch(start.readyUrl).then(
          () => true,
          () => false,
        );
        if (answered) return true;
        if (child.exitCode !== null) throw new Error('exited');
        return false;
      },
      { message: `${start.name} to answer`, timeoutMs: 10_000, intervalMs: 100 },
    );
  } catch {
    await stop();
    throw new Error(`${start.name} did not start: ${stderr}`);
  }
  return { dir, stop };
}
