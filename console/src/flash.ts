import type { Status } from './layout/status-line';

let pending: Status | undefined;

/** A message for the next page, e.g. "Saved." after a new entry's page opens. */
export function setFlash(status: Status): void {
  pending = status;
}

/** The pending message, once. */
export function takeFlash(): Status | undefined {
  const status = pending;
  pending = undefined;
  return status;
}
