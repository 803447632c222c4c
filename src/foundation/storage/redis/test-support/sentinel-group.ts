import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../../../test-support/free-port.js';
import { waitUntil } from '../../../../test-support/wait-until.js';
import { spawnRedisServer } from './private-redis-server.js';

/** Whether Debian's redis-sentinel (redis-server in sentinel mode) can be run here. */
export function redisSentinelInstalled(): boolean {
  return spawnSync('redis-sentinel', ['--version']).error === undefined;
}

/** A process of the group and the port it serves. */
interface Member {
  readonly port: number;
  readonly child: ChildProcess;
}

/**
 * A Redis master, one replica and three Sentinels (quorum 2) on free loopback
 * ports, each a process of its own with its files in one temporary directory,
 * all killed and the directory removed by `stop`, which `start` calls itself
 * when the group cannot be started. The Sentinels call the master down after
 * a second without answer, so a failover takes seconds, not half a minute.
 */
export class SentinelGroup {
  readonly masterName = 'ssogate-test';
  private readonly members: Member[] = [];
  private readonly connections = new Map<number, Redis>();
  private dir: string | undefined;
  /** The ports of the servers: the first master, then its replica. */
  servers: readonly number[] = [];
  sentinels: readonly number[] = [];

  /** SSOGATE_REDIS_SENTINELS for this group. */
  get sentinelSetting(): string {
    return this.sentinels.map((port) => `127.0.0.1:${port}`).join(',');
  }

  async start(): Promise<void> {
    try {
      this.dir = await mkdtemp(join(tmpdir(), 'ssogate-sentinel-'));
      const [masterPort, replicaPort] = [await freePort(), await freePort()];
      this.servers = [masterPort, replicaPort];
      await this.startServer(masterPort, []);
      await this.startServer(replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]);
      // The replica first in sync: a Sentinel learns of replicas from the
      // master's INFO, which it reads when it starts and then every 10 s.
      const replica = this.connect(replicaPort);
      await waitUntil(async () => /master_link_status:up/.test(await replica.info('replication')), {
        message: 'the replica to be in sync with the master',
      });
      const sentinels: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        const port = await freePort();
        sentinels.push(port);
        await this.startSentinel(port, masterPort);
      }
      this.sentinels = sentinels;
      // Each Sentinel sees the others (CKQUORUM: enough to agree and to
      // authorize a failover) and knows the replica.
      for (const port of sentinels) {
        const sentinel = this.connect(port);
        await waitUntil(
          async () => {
            const quorum = await sentinel
              .call('SENTINEL', 'CKQUORUM', this.masterName)
              .catch((error: unknown) => String(error));
            const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', this.masterName)) as
              unknown[] | null;
            return String(quorum).startsWith('OK') && (replicas?.length ?? 0) === 1;
          },
          { message: `Sentinel ${port} to see its peers and the replica`, timeoutMs: 30_000 },
        );
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** A plain connection to one port of the group (one per port), closed by `stop`. */
  connect(port: number): Redis {
    const known = this.connections.get(port);
    if (known !== undefined) return known;
    const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
    redis.on('error', () => {
      // a failing command rejects on its own
    });
    this.connections.set(port, redis);
    return redis;
  }

  /** The master's port as the Sentinels name it now. */
  async masterPort(): Promise<number> {
    const sentinel = this.connect(this.sentinels[0] ?? 0);
    const reply = (await sentinel.call(
      'SENTINEL',
      'GET-MASTER-ADDR-BY-NAME',
      this.masterName,
    )) as string[];
    return Number(reply[1]);
  }

  /**
   * Has the Sentinels promote the replica (SENTINEL FAILOVER) once every
   * write so far has reached it (WAIT), and resolves when the old master
   * serves as the new one's replica, in sync: the failover is over.
   */
  async failOver(): Promise<{ oldMaster: number; newMaster: number }> {
    const oldMaster = await this.masterPort();
    const newMaster = this.servers.find((port) => port !== oldMaster) ?? 0;
    const master = this.connect(oldMaster);
    const acknowledged = await master.call('WAIT', '1', '5000');
    if (acknowledged !== 1) throw new Error(`the replica acknowledged ${String(acknowledged)}`);
    const sentinel = this.connect(this.sentinels[0] ?? 0);
    // NOGOODSLAVE while a Sentinel has not yet read the replica's own INFO.
    await waitUntil(
      () =>
        sentinel.call('SENTINEL', 'FAILOVER', this.masterName).then(
          () => true,
          () => false,
        ),
      { message: 'the Sentinel to start a failover', timeoutMs: 30_000, intervalMs: 200 },
    );
    const demoted = this.connect(oldMaster);
    await waitUntil(
      async () =>
        (await this.masterPort()) === newMaster &&
        /role:slave/.test(await demoted.info('replication')) &&
        // In sync, so the new master (min-replicas-to-write 1) takes writes.
        /master_link_status:up/.test(await demoted.info('replication')),
      { message: 'the old master to serve as a replica of the new one', timeoutMs: 30_000 },
    );
    return { oldMaster, newMaster };
  }

  /** Kills every process and removes the directory; safe to call more than once. */
  async stop(): Promise<void> {
    for (const redis of this.connections.values()) redis.disconnect();
    this.connections.clear();
    const members = this.members.splice(0);
    await Promise.all(members.map(({ child }) => killAndWait(child)));
    if (this.dir !== undefined) await rm(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private async startServer(port: number, more: readonly string[]): Promise<void> {
    const dir = join(this.requireDir(), `redis-${port}`);
    await mkdir(dir);
    // As docs/operations.md asks of a master: no write taken while no
    // replica has answered for 10 s, so a master cut off from the others
    // (split brain) soon stops taking writes the failover would drop.
    const child = spawnRedisServer(port, [
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--min-replicas-to-write',
      '1',
      '--min-replicas-max-lag',
      '10',
      ...more,
    ]);
    this.members.push({ port, child });
    await this.accepting(port, child);
  }

  private async startSentinel(port: number, masterPort: number): Promise<void> {
    // A file of its own: a Sentinel writes what it learns (peers, epochs) back into it.
    const file = join(this.requireDir(), `sentinel-${port}.conf`);
    await writeFile(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${this.requireDir()}`,
        `sentinel monitor ${this.masterName} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${this.masterName} 1000`,
        `sentinel failover-timeout ${this.masterName} 10000`,
        '',
      ].join('\n'),
    );
    const child = spawn('redis-sentinel', [file], { stdio: 'ignore' });
    this.members.push({ port, child });
    await this.accepting(port, child);
  }

  private async accepting(port: number, child: ChildProcess): Promise<void> {
    const probe = this.connect(port);
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`the process on port ${port} exited`);
        return (await probe.ping().catch(() => '')) === 'PONG';
      },
      { message: `a server on port ${port}`, intervalMs: 25 },
    );
  }

  private requireDir(): string {
    if (this.dir === undefined) throw new Error('the group has not started');
    return this.dir;
  }
}

async function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
