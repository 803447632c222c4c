/**
 * How requests that went as expected write their lines: `sampled` (the
 * default) writes one routine request's line in routineLineEvery, `all`
 * writes every one (SSOGATE_REQUEST_LOG, docs/configuration.md#logs).
 */
export const REQUEST_LOG_MODES = ['sampled', 'all'] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];

/**
 * Of the routine requests (a check or a proxied request let through, a
 * sign-in's start sent on to its provider), one in this many writes its
 * line: a line costs about as much CPU as such an answer itself, and a
 * sign-in's start says nothing its callback's line does not say with the
 * outcome (docs/benchmarks.md#log-lines). Every other request, and any
 * routine one that fails, writes its line.
 */
export const routineLineEvery = 64;

/** Which routine requests write their line: one counter per app, shared by the routes and the fast paths. */
export class RoutineLines {
  private sinceLine = 0;

  constructor(private readonly mode: RequestLogMode) {}

  /** Whether the routine request answered now writes its line. */
  writesNext(): boolean {
    if (this.mode === 'all') return true;
    this.sinceLine += 1;
    if (this.sinceLine < routineLineEvery) return false;
    this.sinceLine = 0;
    return true;
  }
}
