import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InvariantResult } from './invariants.js';
import type { FaultWindow, Outcome, OutcomeLog } from './outcomes.js';
import { kinds, unseenHandshake } from './outcomes.js';
import type { ResourceSample } from './resources.js';

/**
 * SQLite; PostgreSQL + Redis, restarted (or Redis failed over); PostgreSQL
 * with a streaming replica + Redis behind Sentinels, both failed over.
 */
export type Backend = 'sqlite' | 'postgres' | 'pg-redis';

/** What one backend's run produced. */
export interface BackendRun {
  readonly backend: Backend;
  readonly instances: number;
  readonly seconds: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly log: OutcomeLog;
  readonly samples: readonly ResourceSample[];
  readonly invariants: readonly InvariantResult[];
  readonly events: readonly string[];
  readonly skipped: readonly string[];
}

const slices = 6;

function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

function byKindAndOutcome(outcomes: readonly Outcome[]): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const { kind, outcome } of outcomes) {
    const row = (table[kind] ??= {});
    row[outcome] = (row[outcome] ?? 0) + 1;
  }
  return table;
}

/** Every 5xx, refused connection and unseen handshake refusal, grouped, with the fault that explains it. */
function failures(
  log: OutcomeLog,
): { kind: string; status: string; code: string; explainedBy: string; count: number }[] {
  const groups = new Map<
    string,
    { kind: string; status: string; code: string; explainedBy: string; count: number }
  >();
  for (const outcome of log.outcomes) {
    const serverError = outcome.status !== undefined && outcome.status >= 500;
    const unseen = outcome.outcome === unseenHandshake;
    if (!serverError && outcome.outcome !== 'network' && !unseen) continue;
    const window: FaultWindow | undefined = log.explaining(outcome);
    const entry = {
      kind: outcome.kind,
      status: unseen
        ? 'refused, then answered'
        : outcome.status === undefined
          ? 'no answer'
          : String(outcome.status),
      code:
        outcome.code ??
        (outcome.outcome === 'network' ? (outcome.detail ?? '').slice(0, 60) : 'none'),
      explainedBy: window?.fault ?? 'unexplained',
    };
    const key = JSON.stringify(entry);
    const group = groups.get(key) ?? { ...entry, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

function latencies(run: BackendRun): Record<string, { p50: number; p99: number; n: number }[]> {
  const span = Math.max(1, run.endedAt - run.startedAt);
  const table: Record<string, { p50: number; p99: number; n: number }[]> = {};
  for (const kind of kinds) {
    const buckets: number[][] = Array.from({ length: slices }, () => []);
    for (const outcome of run.log.outcomes) {
      if (outcome.kind !== kind || outcome.outcome !== 'ok') continue;
      const slice = Math.min(
        slices - 1,
        Math.floor(((outcome.startedAt - run.startedAt) / span) * slices),
      );
      buckets[Math.max(0, slice)]?.push(outcome.durationMs);
    }
    table[kind] = buckets.map((bucket) => {
      const sorted = [...bucket].sort((a, b) => a - b);
      return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), n: sorted.length };
    });
  }
  return table;
}

function resources(
  run: BackendRun,
): Record<string, { slice: number; rssMb: number; fds: number }[]> {
  const span = Math.max(1, run.endedAt - run.startedAt);
  const table: Record<string, { slice: number; rssMb: number; fds: number }[]> = {};
  for (const sample of run.samples) {
    const slice = Math.min(
      slices,
      Math.max(0, Math.floor(((sample.at - run.startedAt) / span) * slices)),
    );
    const rows = (table[sample.instance] ??= []);
    const row = rows.find((candidate) => candidate.slice === slice);
    // The highest reading of the slice: a leak shows as a rising maximum.
    if (row === undefined) rows.push({ slice, rssMb: sample.rssKb / 1024, fds: sample.openFds });
    else {
      row.rssMb = Math.max(row.rssMb, sample.rssKb / 1024);
      row.fds = Math.max(row.fds, sample.openFds);
    }
  }
  return table;
}

/** Whether the run failed, and why, in sentences. */
export function verdictOf(run: BackendRun): string[] {
  const reasons: string[] = [];
  const unexplained = run.log.unexplained();
  const groups: [string, (outcome: Outcome) => boolean][] = [
    ['unexplained 5xx answers', (outcome) => outcome.status !== undefined],
    [
      'requests without an answer no fault window explains',
      (outcome) => outcome.outcome === 'network',
    ],
    [
      'WebSocket handshakes refused while the path answered',
      (outcome) => outcome.outcome === unseenHandshake,
    ],
  ];
  for (const [what, belongs] of groups) {
    const found = unexplained.filter(belongs);
    if (found.length === 0) continue;
    // The first few, so the command's own output says what went wrong.
    const examples = found.slice(0, 3).map((outcome) => {
      const at = ((outcome.startedAt - run.startedAt) / 1000).toFixed(1);
      const why = outcome.detail ?? `${outcome.status ?? ''} ${outcome.code ?? ''}`.trim();
      return `${outcome.kind} at +${at} s for ${outcome.durationMs} ms: ${why}`;
    });
    reasons.push(`${found.length} ${what} (${examples.join('; ')})`);
  }
  for (const invariant of run.invariants) {
    if (invariant.broken.length > 0) reasons.push(`broken: ${invariant.name}`);
  }
  return reasons;
}

function markdownOf(run: BackendRun): string {
  const lines: string[] = [];
  const verdict = verdictOf(run);
  lines.push(
    `## ${run.backend} (${run.instances} instance${run.instances > 1 ? 's' : ''}), ${run.seconds} s`,
  );
  lines.push(
    '',
    `Verdict: ${verdict.length === 0 ? '**pass**' : `**fail**: ${verdict.join('; ')}`}`,
    '',
  );
  if (run.skipped.length > 0) lines.push(`Skipped: ${run.skipped.join('; ')}`, '');
  lines.push(
    '### Requests by kind and outcome',
    '',
    '| kind | total | outcomes |',
    '| --- | --- | --- |',
  );
  for (const [kind, row] of Object.entries(byKindAndOutcome(run.log.outcomes))) {
    const total = Object.values(row).reduce((sum, n) => sum + n, 0);
    const parts = Object.entries(row)
      .sort((a, b) => b[1] - a[1])
      .map(([outcome, n]) => `${outcome} ${n}`);
    lines.push(`| ${kind} | ${total} | ${parts.join(', ')} |`);
  }
  lines.push('', '### 5xx answers and unanswered requests', '');
  const failed = failures(run.log);
  if (failed.length === 0) lines.push('None.');
  else {
    lines.push(
      '| kind | status | code | explained by | count |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const row of failed)
      lines.push(
        `| ${row.kind} | ${row.status} | ${row.code.replaceAll('|', '/')} | ${row.explainedBy} | ${row.count} |`,
      );
  }
  lines.push('', '### Latency of successful operations, p50 / p99 ms, per sixth of the run', '');
  lines.push(`| kind | ${Array.from({ length: slices }, (_, i) => `${i + 1}`).join(' | ')} |`);
  lines.push(`| --- | ${Array.from({ length: slices }, () => '---').join(' | ')} |`);
  for (const [kind, row] of Object.entries(latencies(run))) {
    lines.push(
      `| ${kind} | ${row.map(({ p50, p99, n }) => (n === 0 ? '-' : `${p50} / ${p99}`)).join(' | ')} |`,
    );
  }
  lines.push(
    '',
    '### Memory (RSS, MB) and open file descriptors, highest per sixth of the run',
    '',
  );
  lines.push(
    `| instance | ${Array.from({ length: slices + 1 }, (_, i) => `${i + 1}`).join(' | ')} |`,
  );
  lines.push(`| --- | ${Array.from({ length: slices + 1 }, () => '---').join(' | ')} |`);
  for (const [instance, rows] of Object.entries(resources(run))) {
    const cells = Array.from({ length: slices + 1 }, (_, slice) => {
      const row = rows.find((candidate) => candidate.slice === slice);
      return row === undefined ? '-' : `${row.rssMb.toFixed(0)} MB, ${row.fds} fds`;
    });
    lines.push(`| ${instance} | ${cells.join(' | ')} |`);
  }
  lines.push('', '### Invariants', '');
  for (const invariant of run.invariants) {
    const figures = Object.entries(invariant.figures)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ');
    lines.push(
      `- ${invariant.broken.length === 0 ? 'holds' : '**broken**'}: ${invariant.name} (${figures})`,
    );
    for (const line of invariant.broken) lines.push(`  - ${line.replaceAll('\n', ' ')}`);
  }
  lines.push('', '### Faults', '');
  for (const event of run.events) lines.push(`- ${event}`);
  lines.push('');
  return lines.join('\n');
}

/** Writes `report.md` and `report.json` into a new folder under `root`; returns the folder. */
export async function writeReport(root: string, runs: readonly BackendRun[]): Promise<string> {
  const folder = join(
    root,
    new Date()
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z'),
  );
  await mkdir(folder, { recursive: true });
  const json = runs.map((run) => ({
    backend: run.backend,
    instances: run.instances,
    seconds: run.seconds,
    verdict: verdictOf(run),
    requests: byKindAndOutcome(run.log.outcomes),
    failures: failures(run.log),
    unexplained: run.log.unexplained().slice(0, 200),
    latencyMsPerSlice: latencies(run),
    resources: run.samples,
    invariants: run.invariants,
    faults: run.events,
    windows: run.log.windows.map((window) => ({ ...window, codes: [...window.codes] })),
    skipped: run.skipped,
  }));
  await writeFile(join(folder, 'report.json'), `${JSON.stringify(json, null, 2)}\n`);
  const markdown = ['# Soak report', '', ...runs.map(markdownOf)].join('\n');
  await writeFile(join(folder, 'report.md'), markdown);
  return folder;
}
