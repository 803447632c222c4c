import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Server } from 'node:http';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { Config } from '../foundation/config/load-config.js';
import { loggerOptions } from '../foundation/logging/logger.js';
import { startMetricsServer } from '../foundation/observability/metrics-endpoint.js';
import { exitOnStop } from './graceful-stop.js';
import { openStorage } from './open-storage.js';
import type { StartFacts } from './start-gateway.js';
import {
  entriesToProvision,
  prepareStorage,
  startFacts,
  startGateway,
  startLines,
  warnAdminPasswordIgnored,
} from './start-gateway.js';

/** Set by the primary for each worker it forks: '1' for the one that runs the expiry sweep. */
const sweepsVariable = 'SSOGATE_WORKER_SWEEPS';
/** Failed starts in a row (a worker gone before it listened) after which the primary gives up. */
const maxFailedStarts = 3;
/** The first restart of a worker waits this long; each further one within a minute, twice as long. */
const firstRestartDelayMs = 250;
const maxRestartDelayMs = 30_000;
const crashWindowMs = 60_000;
/** How long a stop waits past the workers' own shutdown time-out before killing them. */
const stopGraceMs = 5_000;

/** The one message a worker sends its primary: it listens. */
interface ListeningMessage {
  readonly kind: 'ssogate:listening';
  readonly address: string;
}

function isListeningMessage(message: unknown): message is ListeningMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { kind?: unknown }).kind === 'ssogate:listening' &&
    typeof (message as { address?: unknown }).address === 'string'
  );
}

/**
 * Whether this process is a worker forked by runPrimary, rather than a
 * process of its own, or a worker of another cluster manager (which then
 * runs as a single gateway, as it always did).
 */
export function forkedByPrimary(): boolean {
  return cluster.isWorker && process.env[sweepsVariable] !== undefined;
}

/**
 * A worker of several: opens the storage the primary has migrated, builds
 * the app and listens on the listener the workers share (node:cluster hands
 * each new connection to one of them), then tells the primary. It stops
 * gracefully on SIGTERM or SIGINT, from the primary or directly, and when
 * its primary is gone.
 */
export async function runWorker(config: Config): Promise<void> {
  const gateway = await startGateway(config, {
    worker: { sweeps: process.env[sweepsVariable] === '1' },
  });
  exitOnStop(gateway, config.shutdownTimeoutMs, ['SIGINT', 'SIGTERM', 'disconnect']);
  const listening: ListeningMessage = { kind: 'ssogate:listening', address: gateway.address };
  process.send?.(listening);
}

/**
 * The primary of SSOGATE_WORKERS workers. What happens once per deployment
 * happens here, before any worker starts: the migrations, the entries file,
 * the first administrator, the start lines (once every worker listens), and
 * the metrics' own listener, which adds up every worker's counts. It
 * restarts a worker that ends unexpectedly, later each time it keeps
 * ending; gives up, exiting 1, when workers keep failing before they
 * listen; and passes SIGTERM and SIGINT on, exiting once every worker has
 * stopped (0 if each stopped cleanly).
 */
export async function runPrimary(config: Config): Promise<void> {
  // Written at once: the primary logs rarely, and its last line comes just before it exits.
  const log = pino(loggerOptions(config.logLevel), pino.destination({ dest: 1, sync: true }));
  const announce = (line: string) => process.stdout.write(`${line}\n`);
  const entries = await entriesToProvision(config);
  // Migrated here, once: the workers find nothing left to migrate.
  const storage = await openStorage(config);
  let facts: StartFacts;
  try {
    const prepared = await prepareStorage(config, storage, entries, announce);
    if (prepared.adminPasswordIgnored) warnAdminPasswordIgnored(log);
    facts = await startFacts(config, storage, entries, '');
  } finally {
    await storage.close();
  }
  const pool = new WorkerPool(config.workers, log, (address, pids) => {
    for (const line of startLines({ ...facts, address, workerPids: pids })) announce(line);
  });
  // prom-client is loaded only when metrics are exposed (docs/benchmarks.md#memory).
  const metricsServer =
    config.metricsAddress === undefined
      ? undefined
      : await startMetricsServer(
          (await import('../foundation/observability/cluster-metrics.js')).workersMetrics(() =>
            pool.listeningWorkers(),
          ),
          config.metricsAddress,
          config.metricsToken,
        );
  const exit = (code: number) => {
    closeServer(metricsServer);
    process.exit(code);
  };
  pool.onGiveUp = () => {
    void pool.stop('SIGTERM', config.shutdownTimeoutMs + stopGraceMs).then(() => {
      exit(1);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (pool.stopping) return;
      process.stdout.write(`${signal}: closing\n`);
      void pool.stop(signal, config.shutdownTimeoutMs + stopGraceMs).then((clean) => {
        exit(clean ? 0 : 1);
      });
    });
  }
  pool.start();
}

function closeServer(server: Server | undefined): void {
  server?.closeAllConnections();
  server?.close();
}

/** One place in the pool: the worker in it now, and when its predecessors ended. */
interface Slot {
  readonly index: number;
  worker: Worker | undefined;
  listening: boolean;
  address: string | undefined;
  endings: number[];
  restart: NodeJS.Timeout | undefined;
}

class WorkerPool {
  private readonly slots: Slot[];
  private failedStarts = 0;
  private announced = false;
  stopping = false;
  private stopped: (() => void) | undefined;
  private cleanStop = true;
  onGiveUp: () => void = () => undefined;

  constructor(
    count: number,
    private readonly log: Logger,
    private readonly onListening: (address: string, pids: readonly number[]) => void,
  ) {
    this.slots = Array.from({ length: count }, (_, index) => ({
      index,
      worker: undefined,
      listening: false,
      address: undefined,
      endings: [],
      restart: undefined,
    }));
  }

  start(): void {
    for (const slot of this.slots) this.fork(slot);
  }

  /** The workers that have said they listen, and are still running. */
  listeningWorkers(): Worker[] {
    return this.slots.flatMap((slot) =>
      slot.listening && slot.worker !== undefined ? [slot.worker] : [],
    );
  }

  /**
   * Passes the signal to every worker and resolves once all have exited,
   * whether each did so cleanly (exit code 0); those still running at
   * `deadlineMs` are killed.
   */
  stop(signal: NodeJS.Signals, deadlineMs: number): Promise<boolean> {
    this.stopping = true;
    for (const slot of this.slots) clearTimeout(slot.restart);
    const running = this.slots.flatMap((slot) => (slot.worker === undefined ? [] : [slot.worker]));
    if (running.length === 0) return Promise.resolve(this.cleanStop);
    return new Promise<boolean>((resolve) => {
      const killer = setTimeout(() => {
        this.cleanStop = false;
        for (const worker of running) worker.process.kill('SIGKILL');
      }, deadlineMs);
      this.stopped = () => {
        clearTimeout(killer);
        resolve(this.cleanStop);
      };
      for (const worker of running) worker.process.kill(signal);
    });
  }

  private fork(slot: Slot): Worker {
    const worker = cluster.fork({ [sweepsVariable]: slot.index === 0 ? '1' : '0' });
    slot.worker = worker;
    slot.listening = false;
    worker.on('message', (message: unknown) => {
      if (!isListeningMessage(message) || slot.worker !== worker) return;
      slot.listening = true;
      slot.address = message.address;
      this.failedStarts = 0;
      this.announceOnce();
    });
    worker.once('exit', (code, signal) => {
      this.ended(slot, worker, code, signal);
    });
    return worker;
  }

  /** The start lines, once, when every worker of the first start listens. */
  private announceOnce(): void {
    if (this.announced || this.stopping || !this.slots.every((slot) => slot.listening)) return;
    this.announced = true;
    const pids = this.slots.map((slot) => slot.worker?.process.pid ?? 0);
    this.onListening(this.slots[0]?.address ?? '', pids);
  }

  private ended(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    const pid = worker.process.pid;
    const how = signal === null ? `with exit code ${String(code)}` : `by ${signal}`;
    if (this.stopping) {
      if (code !== 0) this.cleanStop = false;
      if (this.slots.every((each) => each.worker === undefined)) this.stopped?.();
      return;
    }
    const number = slot.index + 1;
    if (!slot.listening) {
      this.failedStarts += 1;
      if (this.failedStarts >= maxFailedStarts) {
        this.log.error(
          { worker: number, workerPid: pid, failedStarts: this.failedStarts },
          `worker ${number} (pid ${String(pid)}) ended ${how} before it listened: workers keep failing at start, stopping`,
        );
        this.onGiveUp();
        return;
      }
    }
    const now = Date.now();
    slot.endings = [...slot.endings.filter((at) => now - at < crashWindowMs), now];
    const delayMs = Math.min(
      firstRestartDelayMs * 2 ** (slot.endings.length - 1),
      maxRestartDelayMs,
    );
    this.log.warn(
      { worker: number, workerPid: pid, restartInMs: delayMs },
      `worker ${number} (pid ${String(pid)}) ended ${how}; another starts in ${delayMs} ms`,
    );
    slot.restart = setTimeout(() => {
      const next = this.fork(slot);
      this.log.warn(
        { worker: number, workerPid: next.process.pid, previousPid: pid },
        `worker ${number} restarted as pid ${String(next.process.pid)}`,
      );
    }, delayMs);
  }
}
