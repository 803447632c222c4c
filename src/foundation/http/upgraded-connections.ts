import type { Revocation, RevocationFeed } from '../storage/session-revocations.js';
import type { EndedSignIns } from '../storage/sign-in-ends.js';

/** An upgraded connection (a proxied WebSocket) and the session it was opened with. */
export interface UpgradedConnection {
  /** The session id of the cookie it was opened with, to check that session again. */
  readonly sessionId: string;
  readonly idHash: string;
  /** The sign-in's session a host's session came from (storage/types.ts SessionRecord); it ends with it. */
  readonly signInHash: string | undefined;
  readonly userRowId: number;
  readonly entryId: string | null;
  /** The path the access rules judged at the handshake. */
  readonly matchPath: string;
  /** The host they judged it on (reverse-proxy/forward-context.ts rulesHost). */
  readonly rulesHost: string;
  /** Stops relaying bytes either way until release() or close(). */
  hold(): void;
  release(): void;
  /** Destroys both sides: the client's socket and the upstream's. */
  close(): void;
}

/**
 * What a check of a connection's session found: still valid and still
 * allowed its path, ended (or no longer allowed), or unknown because
 * storage did not answer.
 */
export type ConnectionVerdict = 'open' | 'ended' | 'unknown';

interface UpgradedConnectionsOptions {
  /** The storage's revocations; without them only the periodic checks close connections. */
  readonly revocations: RevocationFeed | undefined;
  /** Checks a connection's session in storage, as a new request would be checked. */
  readonly check: (connection: UpgradedConnection) => Promise<ConnectionVerdict>;
  /** How often every open connection's session is checked again. */
  readonly recheckEveryMs: number;
}

/**
 * How often, while connections are open, the feed catches up with other
 * processes' revocations. SQLite's log is read only at a catch-up
 * (src/foundation/storage/sqlite/sqlite-revocation-feed.ts), which requests
 * make; a worker whose sockets carry no request would otherwise hear a
 * sibling worker's sign-out at its next periodic round, up to 30 seconds
 * later. A catch-up with nothing new reads one pragma; the other feeds'
 * cost nothing.
 */
const catchUpEveryMs = 250;

/**
 * How often the sessions of open WebSockets are checked again by default:
 * every 30 seconds, or every touch interval if that is shorter
 * (src/features/sessions/session-service.ts), so that a socket ends at most that long
 * after its session's idle or absolute limit, or a revocation no feed carried.
 */
export function upgradeRecheckMs(touchIntervalMs: number): number {
  return Math.min(30_000, touchIntervalMs);
}

/**
 * The gateway's open upgraded connections, each known by its session's id
 * hash, its user and its entry, so that the end of a session ends them too
 * (a WebSocket is one long request: its handshake's session check would
 * otherwise be the last). One per gateway, made with it
 * (src/app/create-gateway.ts); src/features/reverse-proxy/proxy-upgrade.ts adds to it.
 *
 * - A session revoked (`session`: signed out, ended, swept, replaced):
 *   its connections close at once, synchronously for this instance's own
 *   writes, before the sign-out is answered.
 * - A user or an entry revoked: the revocation also says "changed" (new
 *   attributes, an entry edited), so the connections named are held (no byte
 *   passes either way) and their sessions checked in storage: ended or no
 *   longer allowed closes them, still valid lets them go on. A check that
 *   storage cannot answer closes them: something named them.
 * - `all` (a lost link to the other instances, a gap in a log): nothing is
 *   known to have ended, so every connection's session is checked, without
 *   holding; those ended close, those storage cannot answer for stay until
 *   the next round.
 * - Every `recheckEveryMs`, every connection's session is checked the same
 *   way (after catching up with the feed): the net under the feed, and the
 *   end of sessions that no revocation announces, their idle and absolute
 *   limits and a refused re-validation.
 */
export class UpgradedConnections {
  private readonly open = new Set<UpgradedConnection>();
  /** Connections due a check, and whether they are held until it answers. */
  private readonly due = new Map<UpgradedConnection, boolean>();
  private flushScheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private catchUpTimer: NodeJS.Timeout | undefined;
  private roundUnderWay = false;
  private closed = false;
  /** Moves at every revocation: a handshake that overlapped one is checked again. */
  private generation = 0;

  constructor(private readonly options: UpgradedConnectionsOptions) {
    options.revocations?.listen((revocation) => {
      this.revoked(revocation);
    });
  }

  /** How many connections are open. */
  get size(): number {
    return this.open.size;
  }

  /** The generation before a handshake's session check, to pass to add(). */
  currentGeneration(): number {
    return this.generation;
  }

  /**
   * Registers an open connection whose session was found valid; if a
   * revocation arrived since `generationBefore` (the check may have read
   * what it revoked), it is held and checked again at once.
   */
  add(connection: UpgradedConnection, generationBefore: number): void {
    if (this.closed) {
      connection.close();
      return;
    }
    this.open.add(connection);
    if (this.generation !== generationBefore) this.checkSoon(connection, true);
    if (this.timer === undefined) {
      this.timer = setInterval(() => {
        void this.round();
      }, this.options.recheckEveryMs);
      this.timer.unref();
      // A feed that is not live is the periodic round's to handle.
      this.catchUpTimer = setInterval(() => {
        this.options.revocations?.catchUp();
      }, catchUpEveryMs);
      this.catchUpTimer.unref();
    }
  }

  /** Forgets a connection that closed by itself. */
  delete(connection: UpgradedConnection): void {
    this.open.delete(connection);
    this.due.delete(connection);
    if (this.open.size === 0) this.stopTimer();
  }

  /** Closes every connection, stops the checks, and ignores revocations from now on. */
  close(): void {
    this.closed = true;
    this.stopTimer();
    for (const connection of [...this.open]) this.end(connection);
    this.due.clear();
  }

  /**
   * A sign-in this instance ended (foundation/storage/sign-in-ends.ts): its
   * connections close at once. Those of a user's or an entry's sign-ins are
   * held and checked, as at their revocation: a password change ends the
   * user's other sign-ins, and writes the changing one back. Other
   * instances' endings arrive as revocations, below.
   */
  signInEnded(ended: EndedSignIns): void {
    if (this.closed) return;
    if (!('signInHash' in ended)) {
      this.revoked(
        'userRowId' in ended
          ? { scope: 'user', userRowId: ended.userRowId }
          : { scope: 'entry', entryId: ended.entryId },
      );
      return;
    }
    for (const connection of [...this.open]) {
      if (connection.idHash === ended.signInHash || connection.signInHash === ended.signInHash)
        this.end(connection);
    }
  }

  private revoked(revocation: Revocation): void {
    if (this.closed) return;
    this.generation += 1;
    for (const connection of [...this.open]) {
      switch (revocation.scope) {
        case 'session':
          if (
            connection.idHash === revocation.idHash ||
            connection.signInHash === revocation.idHash
          )
            this.end(connection);
          break;
        case 'user':
          if (connection.userRowId === revocation.userRowId) this.checkSoon(connection, true);
          break;
        case 'entry':
          if (connection.entryId === revocation.entryId) this.checkSoon(connection, true);
          break;
        case 'all':
          this.checkSoon(connection, false);
      }
    }
  }

  /**
   * Holds the connection now if asked, and checks it on the next turn of the
   * event loop: revocations arrive inside the writing statement on SQLite
   * (src/foundation/storage/sqlite/sqlite-revocation-feed.ts), where no query may run,
   * and one write often revokes several things at once.
   */
  private checkSoon(connection: UpgradedConnection, hold: boolean): void {
    if (hold) connection.hold();
    this.due.set(connection, hold || this.due.get(connection) === true);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const batch = [...this.due];
      this.due.clear();
      for (const [due, held] of batch) void this.checkOne(due, held);
    });
  }

  private async checkOne(connection: UpgradedConnection, held: boolean): Promise<void> {
    let verdict: ConnectionVerdict;
    try {
      verdict = await this.options.check(connection);
    } catch {
      verdict = 'unknown';
    }
    if (!this.open.has(connection)) return;
    if (verdict === 'ended' || (verdict === 'unknown' && held)) this.end(connection);
    else if (held && !this.due.has(connection)) connection.release();
  }

  /** One periodic round: catches up with the feed, then checks every connection's session. */
  private async round(): Promise<void> {
    if (this.roundUnderWay || this.closed) return;
    this.roundUnderWay = true;
    try {
      if (this.options.revocations?.catchUp() === false) this.revoked({ scope: 'all' });
      await Promise.all([...this.open].map((connection) => this.checkOne(connection, false)));
    } finally {
      this.roundUnderWay = false;
    }
  }

  private end(connection: UpgradedConnection): void {
    this.delete(connection);
    connection.close();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    clearInterval(this.catchUpTimer);
    this.timer = undefined;
    this.catchUpTimer = undefined;
  }
}
