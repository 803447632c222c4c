import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { CheckpointThreadData } from './checkpoint-thread.js';

/** SQLite's own default: the connection that commits checkpoints once the log holds this many pages. */
const inLoopCheckpointPages = 1000;
/**
 * While the thread runs, the gateway's connection checkpoints only past this
 * many pages (about 40 MiB of log): a backstop should the thread fall behind.
 */
const backstopCheckpointPages = 10_000;

interface BackgroundCheckpointOptions {
  /** The thread starts once the log file reaches this size: a file written to in earnest. */
  readonly startAtLogBytes?: number;
  /** How often the log's size is looked at until then. */
  readonly pollMs?: number;
  /** How often the thread checkpoints. */
  readonly everyMs?: number;
  /** The thread's module; tests give one that fails. */
  readonly threadUrl?: URL;
}

export type CheckpointState = 'waiting' | 'running' | 'failed' | 'stopped';

export interface BackgroundCheckpoints {
  readonly state: CheckpointState;
  /** Ends the thread (before the gateway's connection closes). */
  stop(): Promise<void>;
}

/**
 * Moves SQLite's checkpoints off the event loop. In WAL mode a commit
 * appends to the log, and every thousand pages the committing connection
 * copies the log into the database file and syncs both (a checkpoint). That
 * made the average commit of a sign-in take twice as long, measured on a
 * two-core machine (about 110 µs of CPU either way, but 210 µs to 265 µs of
 * wall time against 110 µs), and the event loop waits through every fsync,
 * with every request behind it. Here a thread with a connection of its own
 * checkpoints instead (checkpoint-thread.ts), and the gateway's connection
 * keeps a far higher threshold as a backstop. The log is still synced at
 * every checkpoint, now every `everyMs` under writes rather than every
 * thousand pages: what a power loss can roll back is at most that long
 * (docs/deployment.md#what-a-sqlite-commit-survives).
 *
 * The thread starts only once the log reaches `startAtLogBytes` (1 MiB):
 * a gateway that writes little (a command, a small site) never pays the
 * thread's memory, about 10 MiB. Should the thread fail, the gateway's
 * connection checkpoints as before, and a process warning says why.
 */
export function checkpointInBackground(
  database: BetterSqlite3.Database,
  filename: string,
  options: BackgroundCheckpointOptions = {},
): BackgroundCheckpoints {
  const startAtLogBytes = options.startAtLogBytes ?? 1024 * 1024;
  const everyMs = options.everyMs ?? 200;
  let state: CheckpointState = 'waiting';
  let thread: Worker | undefined;

  const fallBack = (why: string): void => {
    if (state !== 'running') return;
    state = 'failed';
    if (database.open) database.pragma(`wal_autocheckpoint = ${inLoopCheckpointPages}`);
    process.emitWarning(`SQLite checkpoints are back on the event loop: ${why}`, {
      code: 'SSOGATE_SQLITE_CHECKPOINTS',
    });
  };

  const start = (): void => {
    const data: CheckpointThreadData = { filename, everyMs };
    const worker = new Worker(
      options.threadUrl ?? new URL('./checkpoint-thread.js', import.meta.url),
      { workerData: data },
    );
    // The thread never keeps the process alive: the storage's close ends it.
    worker.unref();
    thread = worker;
    state = 'running';
    database.pragma(`wal_autocheckpoint = ${backstopCheckpointPages}`);
    worker.on('error', (error) => {
      fallBack(error.message);
    });
    worker.on('exit', (code) => {
      fallBack(`the checkpoint thread exited (${code})`);
    });
  };

  const poll = setInterval(() => {
    stat(`${filename}-wal`).then(
      (log) => {
        if (state !== 'waiting' || log.size < startAtLogBytes) return;
        clearInterval(poll);
        start();
      },
      // No log yet (nothing written since the last close): look again later.
      () => undefined,
    );
  }, options.pollMs ?? 1000);
  poll.unref();

  return {
    get state() {
      return state;
    },
    async stop() {
      clearInterval(poll);
      const running = state === 'running' ? thread : undefined;
      state = 'stopped';
      if (running === undefined) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // Held now, so that the process waits for the thread's connection to close.
      running.ref();
      running.postMessage('stop');
      await exited;
    },
  };
}
