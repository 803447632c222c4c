import type { JsonValue } from '../../core/index.js';
import type { ProvisioningPlan } from '../sign-in/provisioning-plan.js';

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
export interface TestTrace {
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

/** The trace as plain text, for a support ticket. */
export function traceText(trace: TestTrace): string {
  const lines = [
    `Test sign-in ${trace.id} with entry ${trace.entryId}${trace.draft ? ' (unsaved draft)' : ''}`,
    `Calls: ${trace.origins.length === 0 ? 'none' : trace.origins.join(', ')}`,
    `Started ${trace.startedAt}${trace.finishedAt === null ? '' : `, finished ${trace.finishedAt}`}`,
    `Outcome: ${trace.outcome ?? trace.status}${trace.error === null ? '' : ` — ${trace.error.code}: ${trace.error.message}`}`,
  ];
  for (const [index, step] of trace.steps.entries()) {
    lines.push('', `${index + 1}. ${step.name}: ${step.outcome}`);
    for (const call of step.calls) {
      lines.push(`   > ${call.method} ${call.url}`);
      for (const [name, value] of Object.entries(call.headers))
        lines.push(`   > ${name}: ${value}`);
      if (call.body !== null) lines.push(`   > ${call.body}`);
      lines.push(
        `   < ${call.status === null ? 'no answer' : `status ${call.status}`} in ${call.durationMs} ms`,
      );
      if (call.responseExcerpt !== null) lines.push(`   < ${call.responseExcerpt}`);
    }
    for (const result of step.results) {
      const shown =
        result.error !== undefined
          ? `${result.error.code}: ${result.error.message}`
          : result.outcome === 'missing'
            ? '(missing)'
            : JSON.stringify(result.value ?? null);
      lines.push(`   ${result.label} → ${shown}`);
    }
    if (step.error !== undefined) lines.push(`   error ${step.error.code}: ${step.error.message}`);
  }
  if (trace.user !== null) lines.push('', `Mapped user: ${JSON.stringify(trace.user)}`);
  if (trace.provisioning !== null) {
    const plan = trace.provisioning;
    lines.push(
      `Provisioning would: ${plan.action}${plan.code === undefined ? '' : ` (${plan.code})`} — ${plan.message}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
