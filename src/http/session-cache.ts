import type { SessionRecord, UserRecord } from '../storage/types.js';

const maxEntries = 10_000;

/** A session found valid, and its user. */
export interface RememberedSession {
  readonly session: SessionRecord;
  readonly user: UserRecord;
}

export interface SessionCacheOptions {
  /** The storage's change stamp; without one nothing is remembered. */
  readonly changeStamp: (() => string) | undefined;
  readonly clock: () => number;
  readonly idleMs: number;
  /** How often a session's activity is written (src/sessions/session-service.ts). */
  readonly touchIntervalMs: number;
}

/**
 * The sessions found valid by recent checks, remembered between the checks
 * of forward-auth and the reverse proxy, which run on every request to a
 * protected application. One per gateway, made with it
 * (src/app/create-gateway.ts); src/sessions/request-session.ts reads and
 * fills it.
 *
 * A remembered session is used only while the storage's change stamp is the
 * one read before it was looked up: any write to sessions or users (a
 * sign-out, a user disabled, by this process or another on the same SQLite
 * file) changes the stamp and forgets every session at once, so sign-out and
 * disabling stay instant. Expiry and idle time are checked on every use.
 * Storage without a stamp (sessions in Redis, shared by instances) is asked
 * every time.
 */
export class SessionCache {
  private stamp: string | undefined = undefined;
  private readonly entries = new Map<string, RememberedSession>();

  constructor(private readonly options: SessionCacheOptions) {}

  /** Whether this storage lets sessions be remembered at all. */
  get enabled(): boolean {
    return this.options.changeStamp !== undefined;
  }

  /** The stamp before a lookup, to pass to remember() after it. */
  currentStamp(): string | undefined {
    return this.stamp;
  }

  /**
   * The remembered session of this id, if there is one still valid now; reads
   * the change stamp first, forgetting everything when it moved. Synchronous,
   * so the forward-auth fast path can answer without a framework.
   */
  remembered(sessionId: string | undefined): RememberedSession | undefined {
    const { changeStamp, clock, idleMs, touchIntervalMs } = this.options;
    if (changeStamp === undefined || sessionId === undefined) return undefined;
    const stamp = changeStamp();
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
      return undefined;
    }
    const known = this.entries.get(sessionId);
    if (known === undefined) return undefined;
    const now = clock();
    const { session } = known;
    // A check due to record activity takes the full path, which writes it.
    if (
      session.expiresAt > now &&
      session.lastSeenAt + idleMs > now &&
      now - session.lastSeenAt < touchIntervalMs
    )
      return known;
    this.entries.delete(sessionId);
    return undefined;
  }

  /**
   * Remembers a session found valid, under the stamp read before the lookup:
   * a write while it ran (its own touch included) makes the next check look
   * again.
   */
  remember(sessionId: string, active: RememberedSession, stampBefore: string | undefined): void {
    if (stampBefore === undefined || this.stamp !== stampBefore) return;
    if (this.entries.size >= maxEntries) this.entries.clear();
    this.entries.set(sessionId, active);
  }
}
