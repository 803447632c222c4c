import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

/** What background-checkpoints.ts hands this thread. */
export interface CheckpointThreadData {
  readonly filename: string;
  readonly everyMs: number;
}

/**
 * The checkpoint thread (background-checkpoints.ts): its own connection to
 * the gateway's SQLite file, copying the write-ahead log into the file every
 * `everyMs`. PASSIVE never waits for a lock and never stops a writer: it
 * copies what no reader still needs and leaves the rest to the next round.
 * Its fsyncs block this thread, not the gateway's event loop. A failure
 * ends the thread; the gateway then checkpoints on its own connection again.
 */
const { filename, everyMs } = workerData as CheckpointThreadData;
const database = new BetterSqlite3(filename, { fileMustExist: true });
// The same sync level as the gateway's connection (open-sqlite-storage.ts):
// a checkpoint syncs the log before copying it and the file after.
database.pragma('synchronous = NORMAL');
const timer = setInterval(() => {
  database.pragma('wal_checkpoint(PASSIVE)');
}, everyMs);

// Any message means stop: the gateway is closing its storage.
parentPort?.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort?.close();
});
