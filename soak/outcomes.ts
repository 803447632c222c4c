/**
 * What the load saw: every operation's kind, outcome, status, error code,
 * start time and duration, and the windows in which the fault schedule
 * made failures expected. A 5xx is explained only by a window whose
 * allowed codes include it; anything else is unexplained and fails the run.
 */

export type Kind =
  'sign_in' | 'returning' | 'forward_auth' | 'proxy_body' | 'websocket' | 'sign_out' | 'admin';

export const kinds: readonly Kind[] = [
  'sign_in',
  'returning',
  'forward_auth',
  'proxy_body',
  'websocket',
  'sign_out',
  'admin',
];

export interface Outcome {
  readonly kind: Kind;
  /** ok, or what went wrong in a word: status_502, network, mismatch, ... */
  readonly outcome: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly detail?: string;
}

/** A time in which the fault schedule makes some coded 5xx answers expected. */
export interface FaultWindow {
  readonly fault: string;
  readonly from: number;
  /** Undefined while the fault lasts. */
  to: number | undefined;
  /** Requests started up to this long after the end may still meet the fault. */
  readonly graceMs: number;
  /** The 5xx codes the fault explains. */
  readonly codes: ReadonlySet<string>;
  /** Whether refused connections are expected (an instance is down). */
  readonly refusals: boolean;
  /**
   * A store's failover (a replica promoted): sign-ins must succeed again
   * within a bound of its start (invariants.ts, signInsResume).
   */
  readonly failover: boolean;
}

/**
 * A WebSocket handshake that failed while the same request without the
 * upgrade, sent right after, was answered. The WebSocket API hides the
 * handshake's status, so this is a refusal of unknown code: only an outage
 * that ended in between (a store back from its restart, an instance started
 * again) explains it.
 */
export const unseenHandshake = 'handshake_unseen';

/**
 * A WebSocket closed after its handshake because the load signed its
 * session out meanwhile: the gateway ends a session's sockets with it.
 * While the harness still counts the session live, such a close is a
 * failure.
 */
export const closedWithSession = 'closed_with_its_session';

/**
 * A storage restart or failover, or a killed instance: the gateway answers
 * 503 service_unavailable (docs/operations.md, a replicated PostgreSQL and
 * Redis Sentinel).
 */
export const outageCodes: ReadonlySet<string> = new Set(['service_unavailable']);

/**
 * A third-party server that is slow, failing or answering garbage: the
 * gateway reports it as the failed step's code (docs/errors.md), never 500.
 */
export const providerCodes: ReadonlySet<string> = new Set([
  'token_request_failed',
  'token_parse_failed',
  'userinfo_request_failed',
  'userinfo_parse_failed',
  'app_token_failed',
  'outbound_busy',
]);

export class OutcomeLog {
  readonly outcomes: Outcome[] = [];
  readonly windows: FaultWindow[] = [];
  /** Broken promises seen while the load ran (a signed-out cookie accepted, say). */
  readonly violations: string[] = [];

  record(outcome: Outcome): void {
    this.outcomes.push(outcome);
  }

  open(
    fault: string,
    codes: ReadonlySet<string>,
    options: { graceMs: number; refusals?: boolean; failover?: boolean },
  ): FaultWindow {
    const window: FaultWindow = {
      fault,
      from: Date.now(),
      to: undefined,
      graceMs: options.graceMs,
      codes,
      refusals: options.refusals ?? false,
      failover: options.failover ?? false,
    };
    this.windows.push(window);
    return window;
  }

  close(window: FaultWindow): void {
    window.to = Date.now();
  }

  /** The window that explains this outcome, if any: the latest that began before it ended. */
  explaining(outcome: Outcome): FaultWindow | undefined {
    const started = outcome.startedAt;
    const ended = outcome.startedAt + outcome.durationMs;
    return this.windows.findLast((window) => {
      const to = (window.to ?? Number.POSITIVE_INFINITY) + window.graceMs;
      // The request overlapped the window (plus its grace).
      if (ended < window.from || started > to) return false;
      if (outcome.outcome === 'network') return window.refusals;
      if (outcome.outcome === unseenHandshake)
        return window.refusals || window.codes.has('service_unavailable');
      return outcome.code !== undefined && window.codes.has(outcome.code);
    });
  }

  /** Every 5xx, refused connection and unseen handshake refusal no window explains. */
  unexplained(): Outcome[] {
    return this.outcomes.filter(
      (outcome) =>
        ((outcome.status !== undefined && outcome.status >= 500) ||
          outcome.outcome === 'network' ||
          outcome.outcome === unseenHandshake) &&
        this.explaining(outcome) === undefined,
    );
  }
}
