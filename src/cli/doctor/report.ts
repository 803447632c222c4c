import type { Finding } from './findings.js';

const statusLabel = { ok: 'ok', warn: 'WARN', fail: 'FAIL' } as const;

/**
 * The findings as a table for a terminal: one row each (status, check,
 * subject, what was found), a problem's code and fix on the line below it,
 * and a last line counting the problems.
 */
export function findingsTable(findings: readonly Finding[]): string {
  const rows = findings.map((finding) => [
    statusLabel[finding.status],
    finding.check,
    finding.subject,
    finding.detail,
  ]);
  const header = ['STATUS', 'CHECK', 'SUBJECT', 'FOUND'];
  const widths = header
    .slice(0, 3)
    .map((title, column) =>
      Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
    );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell))
      .join('  ')
      .trimEnd();
  const indent = ' '.repeat((widths[0] ?? 0) + 2);
  const lines = [line(header)];
  findings.forEach((finding, index) => {
    lines.push(line(rows[index] ?? []));
    if (finding.code !== undefined)
      lines.push(`${indent}fix [${finding.code}]: ${finding.fix ?? ''}`);
  });
  const failures = findings.filter((finding) => finding.status === 'fail').length;
  const warnings = findings.filter((finding) => finding.status === 'warn').length;
  lines.push(
    '',
    failures + warnings === 0
      ? `No problem found in ${findings.length} checks.`
      : `${failures} failed, ${warnings} warnings, of ${findings.length} checks.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The findings for scripts: `ok` is false on any warning or failure, as the exit status. */
export function findingsJson(findings: readonly Finding[]): string {
  const ok = findings.every((finding) => finding.status === 'ok');
  return `${JSON.stringify({ ok, findings }, null, 2)}\n`;
}
