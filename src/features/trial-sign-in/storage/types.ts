/**
 * The store of administrators' test sign-ins (docs/admin-api.md#test-sign-in),
 * over a table of its own (trial-tables.ts, migrations/) in the gateway's
 * database: the storage kernel (src/foundation/storage/) knows nothing of
 * it, and the composition root (app/open-storage.ts) adds it to the
 * gateway's storage (trial-stores.ts). Times are epoch milliseconds passed
 * in by the caller, as in the kernel's stores.
 */

export type TrialSignInStatus = 'waiting' | 'running' | 'done';

export interface TrialSignInRecord {
  readonly id: string;
  /** The hash of the state the authorization URL carries (pending-key.ts). */
  readonly stateKey: string;
  /** Who started it: an administrator's userId or `token:NAME`; only they read it. */
  readonly actor: string;
  readonly entryId: string;
  readonly status: TrialSignInStatus;
  /** Sealed at rest: the draft entry and the flow's own secrets, as JSON. */
  readonly secrets: string;
  /** The masked trace as JSON, once there is one. */
  readonly trace: string | null;
  readonly createdAt: number;
  /** The callback is accepted until then (the pending sign-in's lifetime). */
  readonly callbackUntil: number;
  /** The trace is read until then. */
  readonly expiresAt: number;
}

export interface TrialSignInStore {
  create(record: TrialSignInRecord): Promise<void>;
  get(id: string): Promise<TrialSignInRecord | undefined>;
  /**
   * Takes the waiting test with this state key, if its callback time is not
   * over, and marks it running: atomically, so a replayed callback finds nothing.
   */
  claim(stateKey: string, now: number): Promise<TrialSignInRecord | undefined>;
  /** Records the trace so far, and whether the test is done. */
  saveTrace(id: string, trace: string, status: TrialSignInStatus): Promise<void>;
  /**
   * Deletes the tests whose trace expired more than a day before `now`,
   * sealed draft and all; resolves how many went.
   */
  deleteExpired(now: number): Promise<number>;
}
