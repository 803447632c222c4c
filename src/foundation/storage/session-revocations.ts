/**
 * What ends or changes remembered session checks: one session, every session
 * of a user, every session signed in with an entry, or everything (a lost
 * link to the other instances). The gateway's session cache
 * (src/foundation/http/session-cache.ts) forgets exactly what a revocation names, so a
 * sign-in or an audit row written elsewhere forgets nothing.
 */
export type Revocation =
  | { readonly scope: 'session'; readonly idHash: string }
  | { readonly scope: 'user'; readonly userRowId: number }
  | { readonly scope: 'entry'; readonly entryId: string }
  | { readonly scope: 'all' };

/**
 * The revocations of every process sharing the storage, as they happen: the
 * session cache listens, and asks before each use whether it may trust what
 * it remembers; so do the gateway's open WebSockets
 * (src/foundation/http/upgraded-connections.ts), which close with their session. Every
 * backend has a feed: SQLite's revocation log, and announcements over Redis
 * or PostgreSQL (revocation-announcements.ts).
 */
export interface RevocationFeed {
  /**
   * Runs `listener` for each revocation: synchronously for this process's own
   * writes (before the write's promise resolves), as soon as they are seen
   * for other processes'.
   */
  listen(listener: (revocation: Revocation) => void): void;
  /**
   * Catches up with other processes' revocations, cheaply enough to run
   * before every remembered answer; false while revocations could be missed
   * (the link to the other instances is down), when nothing may be
   * remembered or trusted.
   */
  catchUp(): boolean;
  close(): Promise<void>;
}

/**
 * A feed between instances that announce what they end (Redis pub/sub,
 * PostgreSQL LISTEN/NOTIFY) rather than log it in the database.
 */
export interface AnnouncingRevocationFeed extends RevocationFeed {
  /**
   * Applies a revocation here at once, sends it, and resolves when every
   * instance that received it has applied it (or after the feed's time-out).
   * Rejects when sending fails: the caller's answer then says so, and doing
   * it again announces again.
   */
  announce(revocation: Revocation): Promise<void>;
}

/** The acknowledgements of one announcement, counted until `expected` is known and reached. */
export class Acknowledgements {
  count = 0;
  expected = Number.POSITIVE_INFINITY;
  done: () => void = () => undefined;
  readonly finished = new Promise<void>((resolve) => {
    this.done = resolve;
  });

  expect(receivers: number): void {
    this.expected = receivers;
    if (this.count >= receivers) this.done();
  }
}

/** A revocation as the log stores it (scope and subject text), or undefined if unknown. */
export function revocationFrom(scope: unknown, subject: unknown): Revocation | undefined {
  const text = typeof subject === 'number' ? String(subject) : subject;
  if (typeof text !== 'string') return undefined;
  switch (scope) {
    case 'session':
      return { scope, idHash: text };
    case 'user': {
      const userRowId = Number(text);
      return Number.isSafeInteger(userRowId) ? { scope, userRowId } : undefined;
    }
    case 'entry':
      return { scope, entryId: text };
    case 'all':
      return { scope };
    default:
      return undefined;
  }
}

/** The log's subject text of a revocation ('' for all). */
export function subjectOf(revocation: Revocation): string {
  switch (revocation.scope) {
    case 'session':
      return revocation.idHash;
    case 'user':
      return String(revocation.userRowId);
    case 'entry':
      return revocation.entryId;
    case 'all':
      return '';
  }
}

/** Listeners of a feed, run in the order they were added. */
export class RevocationListeners {
  private readonly listeners: ((revocation: Revocation) => void)[] = [];

  add(listener: (revocation: Revocation) => void): void {
    this.listeners.push(listener);
  }

  run(revocation: Revocation): void {
    for (const listener of this.listeners) listener(revocation);
  }

  clear(): void {
    this.listeners.length = 0;
  }
}
