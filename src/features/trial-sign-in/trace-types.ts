import type { JsonValue } from '../../core/index.js';
import type { ProvisioningPlan } from '../sign-in/provisioning-plan.js';

/**
 * A test sign-in's trace, as the gateway records it and the console reads
 * it (console/src/trial-sign-in/trial-sign-in-panel.tsx). Types only, so
 * the console imports them without bundling any of the gateway's code; the
 * text of a trace is trace.ts's.
 */

/** One call to the third-party server (or the extension service), as sent and as answered. */
export interface TraceCall {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  /** The answer's status; null when the call itself failed (network, time-out). */
  readonly status: number | null;
  readonly durationMs: number;
  /** The start of the answer's body, masked. */
  readonly responseExcerpt: string | null;
}

/** A check or expression the step evaluated, and what it gave. */
export interface TraceResult {
  /** What was evaluated: `tokenParse`, `successCondition`, `userId = JSON_GET(...)`. */
  readonly label: string;
  readonly outcome: 'ok' | 'missing' | 'failed';
  /** The value, masked; secrets and tokens show as ***. */
  readonly value?: JsonValue;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface TraceStep {
  /** `callback`, `app token`, `token`, `user info`, `call NAME`, `extension`, `provisioning`. */
  readonly name: string;
  readonly outcome: 'ok' | 'failed';
  readonly calls: readonly TraceCall[];
  readonly results: readonly TraceResult[];
  readonly error?: { readonly code: string; readonly message: string };
}

/** The trace of a test sign-in: everything a support ticket needs, nothing secret. */
export interface TrialSignInTrace {
  readonly id: string;
  readonly entryId: string;
  /** True when the entry tested is a draft, not the stored entry. */
  readonly draft: boolean;
  /**
   * The origins the entry tested makes the gateway call (entryCallOrigins):
   * where its secrets may go. Also in the test's audit event.
   */
  readonly origins: readonly string[];
  readonly status: 'waiting' | 'running' | 'done';
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** `success`: the user would be signed in; `failure`: the sign-in would fail with `error`. */
  readonly outcome: 'success' | 'failure' | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly steps: readonly TraceStep[];
  readonly user: Readonly<Record<string, JsonValue>> | null;
  readonly provisioning: ProvisioningPlan | null;
}

/** GET /_sso/api/test-sign-ins/{id}: the trace, and the same as plain text (trace.ts). */
export interface TraceAnswer {
  readonly trace: TrialSignInTrace;
  readonly text: string;
}
