import type { GatewayProcess } from './gateway-process.js';
import { waitUntil } from '../../test-support/wait-until.js';

/**
 * The gateway's JSON log lines so far (the primary's and every worker's):
 * whole lines only, as the pipe may have brought half of the last one.
 * Request lines name the worker (pid) that answered when the gateway runs
 * with SSOGATE_LOG_LEVEL=info and SSOGATE_REQUEST_LOG=all.
 */
export function logLines(gateway: GatewayProcess): Record<string, unknown>[] {
  return gateway.output
    .join('')
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits (up to 20 s) for a log line `match` accepts, from line `after` on, and returns it. */
export async function logLine(
  gateway: GatewayProcess,
  match: (line: Record<string, unknown>) => boolean,
  after = 0,
): Promise<Record<string, unknown>> {
  return waitUntil(() => logLines(gateway).slice(after).find(match), {
    message: () => `a log line among:\n${gateway.output.join('')}`,
    timeoutMs: 20_000,
    intervalMs: 50,
  });
}

/** Whether a log line is that of a request to a path starting with `path`. */
export function isRequestTo(line: Record<string, unknown>, path: string): boolean {
  return (line.req as { url?: string } | undefined)?.url?.startsWith(path) === true;
}
