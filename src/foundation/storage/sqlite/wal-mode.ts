/** The one call of a better-sqlite3 Database this needs. */
interface PragmaRunner {
  pragma(source: string): unknown;
}

interface WalModeOptions {
  /** How long to keep trying while other connections hold the file. */
  readonly withinMs?: number;
  readonly clock?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Puts the file in WAL mode, trying again while another connection holds it.
 *
 * Switching the journal mode needs the file's exclusive lock. When several
 * processes open a new file at once (workers of SSOGATE_WORKERS, a CLI
 * command beside a starting server), two can each hold the shared lock and
 * each want the exclusive one: SQLite then answers SQLITE_BUSY at once,
 * without waiting out the busy time-out, since neither could ever get it
 * while the other waits. The one refused lets
 * go of its shared lock with the failed statement, so a later try succeeds
 * once the other has switched; the mode is kept in the file, so the switch
 * is then a no-op.
 */
export async function switchToWalMode(
  database: PragmaRunner,
  { withinMs = 5000, clock = Date.now, sleep = pause }: WalModeOptions = {},
): Promise<void> {
  const deadline = clock() + withinMs;
  for (let attempt = 1; ; attempt++) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || clock() >= deadline) throw error;
      // A short wait that grows, with jitter so that racing processes part.
      await sleep(Math.min(100, attempt * 5) * (0.5 + Math.random()));
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
