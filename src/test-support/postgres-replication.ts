import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  ) {}

  /** postgres:// URLs of the servers named, in that order, libpq style. */
  url(...servers: readonly ReplicatedServer[]): string {
    const hosts = servers.map(({ port }) => `127.0.0.1:${port}`).join(',');
    return `postgres://postgres@${hosts}/postgres`;
  }

  static async start(bin: string): Promise<ReplicatedPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'ssogate-pg-pair-'));
    const cluster = new ReplicatedPostgres(
      bin,
      dir,
      { port: await freePort(), data: join(dir, 'primary') },
      { port: await freePort(), data: join(dir, 'replica') },
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

  /** A crash, or the machine lost: no shutdown checkpoint, connections cut. */
  stopImmediately(server: ReplicatedServer): void {
    this.run('pg_ctl', ['-D', server.data, '-m', 'immediate', '-w', 'stop']);
  }

  /** Ends recovery: the replica takes writes from now on. */
  promote(server: ReplicatedServer): void {
    this.run('pg_ctl', ['-D', server.data, '-w', '-t', '60', 'promote']);
  }

  destroy(): void {
    for (const server of [this.replica, this.primary]) {
      if (existsSync(join(server.data, 'postmaster.pid')))
        this.runAsOwner('pg_ctl', ['-D', server.data, '-m', 'immediate', '-w', 'stop']);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private startServer(server: ReplicatedServer): void {
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
    const path = join(this.bin, program);
    const result =
      process.getuid?.() === 0
        ? spawnSync('runuser', ['-u', 'postgres', '--', path, ...args], { encoding: 'utf8' })
        : spawnSync(path, args, { encoding: 'utf8' });
    return {
      ok: result.status === 0,
      output: `${result.stdout}${result.stderr}${result.error?.message ?? ''}`,
    };
  }
}
