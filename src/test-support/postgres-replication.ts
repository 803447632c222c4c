import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

/** The newest installed PostgreSQL's server programs (Debian's layout), or undefined. */
export function postgresServerPrograms(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) =>
      ['initdb', 'pg_ctl', 'pg_basebackup'].every((program) =>
        existsSync(join(base, name, 'bin', program)),
      ),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], 'bin');
}

/** A server of the pair: its port and data directory. */
export interface ReplicatedServer {
  readonly port: number;
  readonly data: string;
}

/** How the pair is started; by default as small as a test needs. */
export interface ReplicationOptions {
  /** More server settings for both, as `name=value` (`max_connections=200`, say). */
  readonly settings?: readonly string[];
  /**
   * Commits on the primary wait until the replica has flushed them
   * (`synchronous_standby_names`, on the primary only: once promoted, the
   * replica has no standby to wait for). A promotion then loses no commit
   * a client was told of, as docs/operations.md asks of a replicated setup.
   */
  readonly synchronous?: boolean;
}

/**
 * A primary and a streaming replica of their own (as soak/processes.ts
 * starts one server), in one temporary directory, for what a switch of
 * primary does to the gateway. destroy() stops both and removes it all; it
 * is safe to call at any point, also after a failed start.
 */
export class ReplicatedPostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly primary: ReplicatedServer,
    readonly replica: ReplicatedServer,
    private readonly options: ReplicationOptions,
  ) {}

  /** postgres:// URLs of the servers named, in that order, libpq style. */
  url(...servers: readonly ReplicatedServer[]): string {
    const hosts = servers.map(({ port }) => `127.0.0.1:${port}`).join(',');
    return `postgres://postgres@${hosts}/postgres`;
  }

  static async start(bin: string, options: ReplicationOptions = {}): Promise<ReplicatedPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'ssogate-pg-pair-'));
    const cluster = new ReplicatedPostgres(
      bin,
      dir,
      { port: await freePort(), data: join(dir, 'primary') },
      { port: await freePort(), data: join(dir, 'replica') },
      options,
    );
    try {
      cluster.ownedByPostgresAccount();
      cluster.run('initdb', [
        '-D',
        cluster.primary.data,
        '-U',
        'postgres',
        '-A',
        'trust',
        '--no-sync',
      ]);
      cluster.startServer(cluster.primary);
      // initdb's pg_hba.conf lets loopback replicate under trust.
      cluster.run('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(cluster.primary.port),
        '-U',
        'postgres',
        '-D',
        cluster.replica.data,
        '-R',
        '-X',
        'stream',
        '--no-sync',
      ]);
      cluster.startServer(cluster.replica);
      return cluster;
    } catch (error) {
      cluster.destroy();
      throw error;
    }
  }

  /**
   * A crash, or the machine lost: no shutdown checkpoint, connections cut.
   * Asynchronous, as the promotion, so that the caller's own traffic flows
   * on meanwhile.
   */
  async stopImmediately(server: ReplicatedServer): Promise<void> {
    await this.runWithoutBlocking('pg_ctl', ['-D', server.data, '-m', 'immediate', '-w', 'stop']);
  }

  /** Ends recovery: the replica takes writes from now on. */
  async promote(server: ReplicatedServer): Promise<void> {
    await this.runWithoutBlocking('pg_ctl', ['-D', server.data, '-w', '-t', '60', 'promote']);
  }

  destroy(): void {
    for (const server of [this.replica, this.primary]) {
      if (existsSync(join(server.data, 'postmaster.pid')))
        this.runAsOwner('pg_ctl', ['-D', server.data, '-m', 'immediate', '-w', 'stop']);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private startServer(server: ReplicatedServer): void {
    const settings = [...(this.options.settings ?? [])];
    // Quoted: pg_ctl starts the server through the shell.
    if (this.options.synchronous === true && server === this.primary)
      settings.push("synchronous_standby_names='*'");
    this.run('pg_ctl', [
      '-D',
      server.data,
      '-l',
      `${server.data}.log`,
      '-w',
      '-t',
      '60',
      '-o',
      [
        `-p ${server.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
        '-c wal_level=replica -c max_wal_senders=4 -c hot_standby=on -c fsync=off',
        ...settings.map((setting) => `-c ${setting}`),
      ].join(' '),
      'start',
    ]);
  }

  /** PostgreSQL's programs refuse root: as root, the directory goes to the postgres account. */
  private ownedByPostgresAccount(): void {
    if (process.getuid?.() !== 0) return;
    const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    const [owner, group] = [id('-u'), id('-g')];
    if (owner.status !== 0) throw new Error('running as root and there is no postgres account');
    chownSync(this.dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }

  private run(program: string, args: readonly string[]): void {
    const result = this.runAsOwner(program, args);
    if (!result.ok) throw new Error(`${program} failed: ${result.output}`);
  }

  private runAsOwner(program: string, args: readonly string[]): { ok: boolean; output: string } {
    const [file, fileArgs] = this.commandAsOwner(program, args);
    const result = spawnSync(file, fileArgs, { encoding: 'utf8' });
    return {
      ok: result.status === 0,
      output: `${result.stdout}${result.stderr}${result.error?.message ?? ''}`,
    };
  }

  private async runWithoutBlocking(program: string, args: readonly string[]): Promise<void> {
    const [file, fileArgs] = this.commandAsOwner(program, args);
    try {
      await promisify(execFile)(file, fileArgs, { encoding: 'utf8' });
    } catch (error) {
      const { stdout, stderr, message } = error as {
        stdout?: string;
        stderr?: string;
        message: string;
      };
      throw new Error(`${program} failed: ${stdout ?? ''}${stderr ?? ''}${message}`, {
        cause: error,
      });
    }
  }

  /** The program's path and arguments, through runuser as root (PostgreSQL refuses root). */
  private commandAsOwner(program: string, args: readonly string[]): [string, string[]] {
    const path = join(this.bin, program);
    return process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', path, ...args]]
      : [path, [...args]];
  }
}
