import type { Revocation, RevocationFeed } from '../storage/session-revocations.js';
import type { SessionRecord, UserRecord } from '../storage/types.js';
import { sessionLiveness } from './session-liveness.js';

/** At most this many sessions are remembered; the oldest go first. */
export const maxRememberedSessions = 10_000;

/** A session found valid, and its user. */
export interface RememberedSession {
  readonly session: SessionRecord;
  readonly user: UserRecord;
}

interface SessionCacheOptions {
  /** The storage's revocations; without them nothing is remembered. */
  readonly revocations: RevocationFeed | undefined;
  readonly clock: () => number;
  readonly idleMs: number;
  /** How often a session's activity is written (src/features/sessions/session-service.ts). */
  readonly touchIntervalMs: number;
}

/**
 * The sessions found valid by recent checks, remembered between the checks
 * of forward-auth and the reverse proxy, which run on every request to a
 * protected application. One per gateway, made with it
 * (src/app/create-gateway.ts); src/features/sessions/request-session.ts reads and
 * fills it.
 *
 * A remembered session is forgotten by the revocations that name it, from
 * this process and every other sharing the storage (src/foundation/storage/
 * session-revocations.ts): its own sign-out or end, a change to its user,
 * its entry changed or deleted. Anything else written (a sign-in, an audit
 * row) forgets nothing. While the feed says revocations could be missed,
 * nothing is remembered. Expiry and idle time are checked on every use, and
 * a session is used only until its activity is due to be written, so the
 * cache holds at most `maxRememberedSessions` sessions, none used past its
 * limits.
 */
export class SessionCache {
  /** By session id (the cookie's value), so a check hashes nothing. */
  private readonly entries = new Map<string, RememberedSession>();
  /** Session id by id hash, for revocations, which name the hash. */
  private readonly idsByHash = new Map<string, string>();
  /** How many remembered sessions are hosts' sessions of a sign-in (signInHash set). */
  private hostSessions = 0;
  /** Moves at every revocation: a lookup that overlapped one is not remembered. */
  private generation = 0;
  private lastSweepAt = 0;

  constructor(private readonly options: SessionCacheOptions) {
    options.revocations?.listen((revocation) => {
      this.forget(revocation);
    });
  }

  /** Whether this storage lets sessions be remembered at all. */
  get enabled(): boolean {
    return this.options.revocations !== undefined;
  }

  /** How many sessions are remembered now. */
  get size(): number {
    return this.entries.size;
  }

  /** The generation before a lookup, to pass to remember() after it. */
  currentGeneration(): number {
    return this.generation;
  }

  /**
   * The remembered session of this id, if there is one still valid now; first
   * catches up with other processes' revocations. Synchronous, so the
   * forward-auth fast path can answer without a framework.
   */
  remembered(sessionId: string | undefined): RememberedSession | undefined {
    const { revocations, clock } = this.options;
    if (revocations === undefined || sessionId === undefined) return undefined;
    if (!revocations.catchUp()) {
      this.forget({ scope: 'all' });
      return undefined;
    }
    const known = this.entries.get(sessionId);
    if (known === undefined) return undefined;
    if (this.usable(known, clock())) return known;
    this.drop(sessionId, known);
    return undefined;
  }

  /**
   * remembered(), by the session's id hash: for a step that knows a session
   * by its hash only, as a handoff's finish knows its sign-in's
   * (src/features/sign-in/handoff.ts). Kept as true as remembered() by the
   * same revocations.
   */
  rememberedByHash(idHash: string): RememberedSession | undefined {
    return this.remembered(this.idsByHash.get(idHash));
  }

  /**
   * Remembers a session found valid, unless a revocation arrived since
   * `generationBefore` was read (the lookup may have read what it revoked) or
   * revocations could be missed now.
   */
  remember(sessionId: string, active: RememberedSession, generationBefore: number): void {
    const { revocations } = this.options;
    if (revocations === undefined || this.generation !== generationBefore) return;
    if (!revocations.catchUp() || this.generation !== generationBefore) return;
    const previous = this.entries.get(sessionId);
    if (previous !== undefined) this.drop(sessionId, previous);
    this.sweep();
    this.entries.set(sessionId, active);
    this.idsByHash.set(active.session.idHash, sessionId);
    if (active.session.signInHash !== undefined) this.hostSessions += 1;
  }

  /** Forgets what a revocation names. */
  forget(revocation: Revocation): void {
    this.generation += 1;
    switch (revocation.scope) {
      case 'session': {
        const id = this.idsByHash.get(revocation.idHash);
        const known = id === undefined ? undefined : this.entries.get(id);
        if (id !== undefined && known !== undefined) this.drop(id, known);
        // The sessions other hosts were handed from it end with it
        // (sessions/session-service.ts). A pass over the cache, only when
        // any such session is remembered: sign-outs are rare beside checks.
        if (this.hostSessions > 0)
          this.dropWhere(({ session }) => session.signInHash === revocation.idHash);
        return;
      }
      case 'user':
        this.dropWhere(({ session }) => session.userRowId === revocation.userRowId);
        return;
      case 'entry':
        this.dropWhere(({ session }) => session.entryId === revocation.entryId);
        return;
      case 'all':
        this.entries.clear();
        this.idsByHash.clear();
        this.hostSessions = 0;
    }
  }

  /** Forgets every session signed in with an entry (local sign-ins stay). */
  forgetEntrySessions(): void {
    this.generation += 1;
    this.dropWhere(({ session }) => session.entryId !== null);
  }

  /** Not past either limit, and not yet due to have its activity written. */
  private usable({ session }: RememberedSession, now: number): boolean {
    const { idleMs, touchIntervalMs } = this.options;
    // A check due to record activity takes the full path, which writes it.
    // Its user and entry are as they were: a change to either forgets it.
    return (
      sessionLiveness(session, session, now, idleMs, true, true) === 'live' &&
      now - session.lastSeenAt < touchIntervalMs
    );
  }

  private drop(sessionId: string, known: RememberedSession): void {
    this.entries.delete(sessionId);
    this.idsByHash.delete(known.session.idHash);
    if (known.session.signInHash !== undefined) this.hostSessions -= 1;
  }

  private dropWhere(matches: (known: RememberedSession) => boolean): void {
    for (const [id, known] of this.entries) if (matches(known)) this.drop(id, known);
  }

  /**
   * Once per touch interval, and whenever the cache is full, drops the
   * sessions no longer usable; if that leaves it nearly full, the oldest go.
   */
  private sweep(): void {
    const now = this.options.clock();
    const full = this.entries.size >= maxRememberedSessions;
    if (!full && now - this.lastSweepAt < this.options.touchIntervalMs) return;
    this.lastSweepAt = now;
    this.dropWhere((known) => !this.usable(known, now));
    if (this.entries.size < maxRememberedSessions) return;
    let excess = this.entries.size - Math.floor(maxRememberedSessions * 0.9);
    for (const [id, known] of this.entries) {
      if (excess <= 0) break;
      this.drop(id, known);
      excess -= 1;
    }
  }
}
