/**
 * Counts failures per key in a fixed window (in memory: one instance; the
 * Redis backend will share it across instances). Used for local sign-in,
 * keyed by client address and by user name, so neither one address trying
 * many names nor many addresses trying one name get far.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /** Milliseconds until the key may try again, or 0 if it may now. */
  retryAfterMs(key: string): number {
    const window = this.current(key);
    return window !== undefined && window.count >= this.maxFailures
      ? window.resetAt - this.clock()
      : 0;
  }

  recordFailure(key: string): void {
    const window = this.current(key);
    if (window === undefined)
      this.windows.set(key, { count: 1, resetAt: this.clock() + this.windowMs });
    else window.count += 1;
    if (this.windows.size > 100_000) this.prune();
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): { count: number; resetAt: number } | undefined {
    const window = this.windows.get(key);
    if (window !== undefined && window.resetAt <= this.clock()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private prune(): void {
    const now = this.clock();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
