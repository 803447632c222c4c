import type { TrialSignInTrace } from './trace-types.js';

/** The trace as plain text, for a support ticket. */
export function traceText(trace: TrialSignInTrace): string {
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
