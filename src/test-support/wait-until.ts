import { inspect } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /**
   * What is awaited, as the failure names it: "the thread to start"; a
   * function is called at the failure, to tell what the test saw by then.
   */
  readonly message: string | (() => string);
  /** How long to ask before failing; 10 s unless given. */
  readonly timeoutMs?: number;
  /** The pause between two asks; 20 ms unless given. */
  readonly intervalMs?: number;
}

/** What a condition answers once it holds. */
type Truthy<T> = Exclude<T, false | 0 | 0n | '' | null | undefined>;

/** Long enough for a machine busy with the whole suite; only a wait that fails waits it out. */
const defaultTimeoutMs = 10_000;
const defaultIntervalMs = 20;

/**
 * Asks `condition` until it answers a truthy value, and returns that value.
 *
 * For what happens off the request path (a delivery, an audit event, a
 * notice from another instance, a process that starts): the test cannot
 * await it, only look again. The condition is asked once more at the
 * deadline, so a slow last pause is no failure; then the wait fails with an
 * error naming what it awaited and the last value the condition gave. An
 * error the condition throws ends the wait at once, as the test's own would.
 */
export async function waitUntil<T>(
  condition: () => T | Promise<T>,
  options: WaitOptions,
): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const intervalMs = options.intervalMs ?? defaultIntervalMs;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await condition();
    if (last) return last as Truthy<T>;
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${describe(options.message)}; ` +
          `the last answer was ${inspect(last, { depth: 3, breakLength: Infinity })}`,
      );
    }
    await delay(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

function describe(message: WaitOptions['message']): string {
  return typeof message === 'string' ? message : message();
}
