import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { waitUntil } from '../../../../test-support/wait-until.js';

/** Whether the redis-server binary can be run here. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).error === undefined;
}

/**
 * Starts redis-server on a loopback port, without RDB snapshots; `more` adds
 * settings (persistence, directory, log file).
 */
export function spawnRedisServer(port: number, more: readonly string[]): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...more],
    { stdio: 'ignore' },
  );
}

/**
 * A throw-away redis-server on a given loopback port, keeping nothing on disk,
 * for tests that kill and restart Redis under a running gateway.
 */
export class PrivateRedisServer {
  private child: ChildProcess | undefined;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawnRedisServer(this.port, ['--appendonly', 'no']);
    this.child = child;
    try {
      await waitUntil(
        async () => {
          if (await accepts(this.port)) return true;
          if (child.exitCode !== null) throw new Error('exited');
          return false;
        },
        { message: `redis-server on port ${this.port}`, timeoutMs: 5000, intervalMs: 25 },
      );
    } catch {
      await this.stop();
      throw new Error(`redis-server on port ${this.port} did not start`);
    }
  }

  /** Kills it outright, as a crash would, and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}
