import { useState } from 'react';
import { describeFailure } from './api';
import type { Status } from './layout/status-line';

export interface Action {
  /** An action is running: its buttons are disabled. */
  readonly busy: boolean;
  readonly status: Status | undefined;
  /**
   * Runs a change; says `done(answer)` when it worked, or the coded failure,
   * and then calls `after` (typically a reload).
   */
  readonly run: <T>(
    call: () => Promise<T>,
    done: (answer: T) => string,
    after?: () => void,
  ) => Promise<void>;
}

/**
 * The one way a page runs a change and tells its outcome (StatusLine);
 * `initial` gives the first status, e.g. a message left by the page before.
 */
export function useAction(initial?: () => Status | undefined): Action {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status | undefined>(initial);
  const run = async <T>(
    call: () => Promise<T>,
    done: (answer: T) => string,
    after?: () => void,
  ) => {
    setBusy(true);
    try {
      const answer = await call();
      setStatus({ kind: 'success', text: done(answer) });
      after?.();
    } catch (failure) {
      setStatus({ kind: 'error', text: describeFailure(failure) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, status, run };
}
