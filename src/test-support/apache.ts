import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait-until.js';

/** Where Debian's apache2 package puts its modules. */
const apacheModules = '/usr/lib/apache2/modules';

const apacheBinary = ['/usr/sbin/apache2', '/usr/sbin/httpd'].find(
  (path) => spawnSync(path, ['-v']).status === 0,
);

const openidcModule = join(apacheModules, 'mod_auth_openidc.so');

// CI installs Debian's apache2 and libapache2-mod-auth-openidc (.ci/run); elsewhere
// the test says it is skipped. Under CI a missing one fails the test instead.
export const modAuthOpenidcSkip: string | false =
  (apacheBinary === undefined || !existsSync(openidcModule)) && process.env.CI !== 'true'
    ? 'no Apache with mod_auth_openidc (apt-get install apache2 libapache2-mod-auth-openidc)'
    : false;

/**
 * The head of a test configuration, everything under `dir` and nothing of
 * /etc/apache2 read: one listener on loopback, the prefork MPM (run with -X:
 * one process, no children coming and going), the named modules loaded.
 */
export function apachePreamble(dir: string, port: number, modules: readonly string[]): string {
  // Apache refuses to serve as root and drops to User/Group when started as root
  // (as under CI); a user that starts it otherwise keeps their own.
  const asRoot = process.getuid?.() === 0 ? 'User www-data\nGroup www-data\n' : '';
  const loads = ['mpm_prefork', 'authn_core', 'authz_core', ...modules].map(
    (name) => `LoadModule ${name}_module ${join(apacheModules, `mod_${name}.so`)}`,
  );
  return `ServerRoot ${dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
DefaultRuntimeDir ${dir}
Mutex file:${dir} default
ErrorLog ${dir}/error.log
LogLevel warn
# One process (-X) serves one connection at a time: a kept-alive one would hold it.
KeepAlive Off
${asRoot}${loads.join('\n')}
<Directory />
  AllowOverride None
  Require all denied
</Directory>
`;
}

export interface RunningApache {
  readonly dir: string;
  /** Apache's error log so far, for a failing test's message. */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Apache with the configuration `conf` makes for its own temporary
 * directory, in one process in the foreground (-X); resolves once `readyUrl`
 * answers.
 */
export async function startApache(
  conf: (dir: string) => string,
  readyUrl: string,
): Promise<RunningApache> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-apache-'));
  // Dropped to www-data, the server still opens its lock files here again.
  await chmod(dir, 0o711);
  const confFile = join(dir, 'httpd.conf');
  await writeFile(confFile, conf(dir));
  const errorLog = () => readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
  const apache: ChildProcess = spawn(apacheBinary ?? 'apache2', ['-X', '-f', confFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Modules that keep files in the temporary directory keep them here.
    env: { ...process.env, TMPDIR: dir },
  });
  let stderr = '';
  apache.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // No binary at all (CI without the package) is an error event, not an exit.
  apache.once('error', (error) => (stderr += `${error.message}\n`));
  const exited = new Promise((resolve) => apache.once('close', resolve));
  try {
    await waitUntil(
      async () => {
        const answered = await fetch(readyUrl).then(
          () => true,
          () => false,
        );
        if (answered) return true;
        if (apache.exitCode !== null || apache.pid === undefined) throw new Error('exited');
        return false;
      },
      { message: 'Apache to answer', timeoutMs: 10_000, intervalMs: 100 },
    );
  } catch {
    apache.kill('SIGTERM');
    const log = await errorLog();
    await rm(dir, { recursive: true, force: true });
    throw new Error(`Apache did not start: ${stderr}${log}`);
  }
  return {
    dir,
    errorLog,
    async stop() {
      if (apache.exitCode === null && apache.signalCode === null) {
        apache.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
