import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { spawnRedisServer } from '../src/foundation/storage/redis/test-support/private-redis-server.js';

/**
 * Process control for a soak run: gateway instances started as an operator
 * starts them (`node dist/main.js`, configured by the environment), and a
 * PostgreSQL cluster and a Redis server of the run's own, on free ports, so
 * restarting them disturbs no one else's database on the machine.
 */

const startTimeoutMs = 120_000;

/** One gateway instance: its log file collects the output of every start. */
export class GatewayInstance {
  private child: ChildProcess | undefined;
  private readonly log: WriteStream;
  private exited: Promise<void> = Promise.resolve();
  /** False while stopped or killed, so the load balancer sends nothing there. */
  up = false;
  /** Exits nobody asked for: a crash. */
  readonly crashes: string[] = [];
  private stopping = false;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly mainScript: string,
    private readonly env: Readonly<Record<string, string>>,
    readonly logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.up ? this.child?.pid : undefined;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [this.mainScript], {
      env: {
        PATH: process.env.PATH ?? '',
        ...this.env,
        SSOGATE_PORT: String(this.port),
        SSOGATE_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.stopping = false;
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    child.once('exit', (code, signal) => {
      if (this.up && !this.stopping) {
        this.crashes.push(
          `${new Date().toISOString()} ${this.name} exited by itself (${String(code ?? signal)})`,
        );
      }
      this.up = false;
    });
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${this.name} did not start within ${startTimeoutMs} ms:\n${seen}`));
      }, startTimeoutMs);
      const onData = (chunk: Buffer) => {
        this.log.write(chunk);
        if (seen.length < 65_536) seen += chunk.toString('utf8');
        if (seen.includes('ssogate listens on')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk: Buffer) => {
        this.log.write(chunk);
        if (seen.length < 65_536) seen += chunk.toString('utf8');
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited with ${String(code)} while starting:\n${seen}`));
      });
    });
    this.up = true;
  }

  /** SIGKILL, as a crash or an OOM killer would: nothing runs after it. */
  async kill(): Promise<void> {
    this.stopping = true;
    this.up = false;
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM and wait for the graceful stop. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.up = false;
    if (
      this.child !== undefined &&
      this.child.exitCode === null &&
      this.child.signalCode === null
    ) {
      this.child.kill('SIGTERM');
      await this.exited;
    }
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise<void>((resolve) => this.log.end(resolve));
  }
}

/** The newest installed PostgreSQL's server programs, or undefined. */
function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) => existsSync(join(base, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], 'bin');
}

/** Runs a PostgreSQL program as the postgres account when we are root (it refuses root). */
function runAsOwner(program: string, args: readonly string[]): { ok: boolean; output: string } {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', program, ...args], { encoding: 'utf8' })
    : spawnSync(program, args, { encoding: 'utf8' });
  return {
    ok: result.status === 0,
    output: `${result.stdout}${result.stderr}${result.error?.message ?? ''}`,
  };
}

/** A throw-away PostgreSQL cluster on its own port and directory. */
export class OwnPostgres {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Creates and starts the cluster, or says why it cannot. */
  static create(port: number): OwnPostgres | string {
    const bin = postgresBin();
    if (bin === undefined) return 'no PostgreSQL server programs under /usr/lib/postgresql';
    const dir = mkdtempSync(join(tmpdir(), 'ssogate-soak-pg-'));
    if (process.getuid?.() === 0) {
      const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      if (owner.status !== 0) return 'running as root and there is no postgres account';
      chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
    }
    const init = runAsOwner(join(bin, 'initdb'), [
      '-D',
      join(dir, 'data'),
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
    ]);
    if (!init.ok) return `initdb failed: ${init.output}`;
    const cluster = new OwnPostgres(bin, dir, port);
    const started = cluster.start();
    if (started !== undefined) return started;
    return cluster;
  }

  /** Undefined when started, else the reason. */
  start(): string | undefined {
    const result = runAsOwner(join(this.bin, 'pg_ctl'), [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '120',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`,
      'start',
    ]);
    return result.ok ? undefined : `pg_ctl start failed: ${result.output}`;
  }

  /** A fast stop ends every connection, as a restart for an upgrade does. */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    runAsOwner(join(this.bin, 'pg_ctl'), [
      '-D',
      join(this.dir, 'data'),
      '-m',
      mode,
      '-w',
      '-t',
      '120',
      'stop',
    ]);
  }

  async restart(downMs: number): Promise<void> {
    this.stop();
    await delay(downMs);
    const failed = this.start();
    if (failed !== undefined) throw new Error(failed);
  }

  destroy(): void {
    this.stop('immediate');
    spawnSync('rm', ['-rf', this.dir]);
  }
}

/** A redis-server of the run's own, with an append-only file so a restart keeps sessions. */
export class OwnRedis {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  readonly dir = mkdtempSync(join(tmpdir(), 'ssogate-soak-redis-'));

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawnRedisServer(this.port, [
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--dir',
      this.dir,
      '--logfile',
      join(this.dir, 'redis.log'),
    ]);
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const ping = spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' });
      if (ping.stdout.trim() === 'PONG') return;
      if (child.exitCode !== null) break;
      await delay(200);
    }
    throw new Error(`redis-server on ${this.port} did not start`);
  }

  async stop(): Promise<void> {
    if (this.child !== undefined && this.child.exitCode === null) {
      this.child.kill('SIGTERM');
      await this.exited;
    }
  }

  async restart(downMs: number): Promise<void> {
    await this.stop();
    await delay(downMs);
    await this.start();
  }

  async destroy(): Promise<void> {
    await this.stop();
    spawnSync('rm', ['-rf', this.dir]);
  }
}
