import type BetterSqlite3 from 'better-sqlite3';
import type { RevocationFeed } from '../session-revocations.js';
import { RevocationListeners, revocationFrom } from '../session-revocations.js';

/** The log keeps its newest rows only; a reader further behind forgets everything. */
const keptRows = 10_000;
/** How many of this connection's log rows go by between trims of the log. */
const trimEvery = 1_000;

/**
 * Revocations of every process on one SQLite file, read from the log that
 * the triggers of src/foundation/storage/migrations/0005-session-revocations.ts fill.
 *
 * - This connection's own writes: a temporary trigger (this connection's
 *   alone) calls back into the process for each row its writes add to the
 *   log, inside the writing statement, so a sign-out forgets the session
 *   before its answer is sent. A write that is rolled back afterwards only
 *   forgets a little too much.
 * - Other connections' commits move the file's data_version
 *   (`otherWritersVersion`, read at most once per turn of the event loop: it
 *   takes the file's shared lock), and when it moved, the log's new rows
 *   are read: another process's revocation applies from the next turn on,
 *   that is, to every request that arrives after its commit.
 *
 * The log is trimmed to its newest rows by whoever writes; a reader that
 * finds rows it never read gone forgets everything (`all`).
 */
export function sqliteRevocationFeed(
  database: BetterSqlite3.Database,
  otherWritersVersion: () => string,
): RevocationFeed {
  const listeners = new RevocationListeners();
  const newestId = database
    .prepare("SELECT seq FROM sqlite_sequence WHERE name = 'session_revocations'")
    .pluck();
  const oldestId = database.prepare('SELECT min(id) FROM session_revocations').pluck();
  const rowsAfter = database.prepare(
    'SELECT id, scope, subject FROM session_revocations WHERE id > ? ORDER BY id',
  );
  const trim = database.prepare(
    'DELETE FROM session_revocations WHERE id <= (SELECT max(id) FROM session_revocations) - ?',
  );

  let readUpTo = Number(newestId.get() ?? 0);
  let ownRows = 0;
  database.function('ssogate_session_revoked', { deterministic: false }, (scope, subject) => {
    const revocation = revocationFrom(scope, subject);
    listeners.run(revocation ?? { scope: 'all' });
    // No statement may run inside this one: the log is trimmed after it.
    ownRows += 1;
    if (ownRows === trimEvery) setImmediate(trimLog);
    return null;
  });
  database.exec(`CREATE TEMP TRIGGER IF NOT EXISTS session_revocations_seen
    AFTER INSERT ON main.session_revocations
    BEGIN SELECT ssogate_session_revoked(NEW.scope, NEW.subject); END`);

  const readOthers = (): void => {
    const oldest = oldestId.get();
    if (typeof oldest === 'number' && oldest > readUpTo + 1) listeners.run({ scope: 'all' });
    for (const row of rowsAfter.iterate(readUpTo) as Iterable<LogRow>) {
      readUpTo = row.id;
      listeners.run(revocationFrom(row.scope, row.subject) ?? { scope: 'all' });
    }
  };

  /** Reads up to the end first (own rows too), so that the trim never looks like a gap here. */
  const trimLog = (): void => {
    ownRows = 0;
    try {
      readOthers();
      trim.run(keptRows);
    } catch {
      // The file is busy or closed: the next thousand rows try again.
    }
  };

  let version = otherWritersVersion();
  return {
    listen: (listener) => {
      listeners.add(listener);
    },
    catchUp() {
      const now = otherWritersVersion();
      if (now !== version) {
        version = now;
        readOthers();
      }
      return true;
    },
    close() {
      listeners.clear();
      return Promise.resolve();
    },
  };
}

interface LogRow {
  readonly id: number;
  readonly scope: unknown;
  readonly subject: unknown;
}
