import type { RunningGateway } from './start-gateway.js';

/** How often a stopping gateway closes connections that have gone idle. */
const idleCheckMs = 100;

/** How a stop went: every request finished, or some were cut off at the deadline. */
type StopOutcome = 'finished' | 'cut_off';

/**
 * Stops a running gateway for SIGTERM: the listening socket closes at once
 * (new connections are refused), idle keep-alive connections are closed,
 * requests under way finish (Fastify's close waits for them), then the
 * sweep, outbound connections and storage close (RunningGateway.close).
 * Requests still running at `timeoutMs` are cut off: their connections are
 * destroyed and their calls to third-party servers ended, so the close
 * completes then rather than at those calls' own time-outs, and the outcome
 * says so.
 */
async function stopGracefully(gateway: RunningGateway, timeoutMs: number): Promise<StopOutcome> {
  const { server } = gateway.app;
  const state = { cutOff: false };
  const deadline = setTimeout(() => {
    state.cutOff = true;
    gateway.cutOff();
  }, timeoutMs);
  // server.close() closes the connections idle at that moment only; one whose
  // request finishes later stays open as keep-alive, and the close would wait
  // for its idle time-out. So those are closed as they go idle.
  const reaper = setInterval(() => {
    server.closeIdleConnections();
  }, idleCheckMs);
  try {
    await gateway.close();
  } finally {
    clearTimeout(deadline);
    clearInterval(reaper);
  }
  return state.cutOff ? 'cut_off' : 'finished';
}

/**
 * Stops the gateway gracefully at the first of `signals` (SIGTERM, SIGINT,
 * or a worker's channel to its primary closing), then exits: 0 only if no
 * request was cut off. A second signal during the stop changes nothing (a
 * terminal's Ctrl-C reaches a worker both directly and from its primary).
 */
export function exitOnStop(
  gateway: RunningGateway,
  timeoutMs: number,
  signals: readonly string[],
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: closing\n`);
    stopGracefully(gateway, timeoutMs).then(
      (outcome) => {
        if (outcome === 'cut_off')
          process.stderr.write('requests still running at the shutdown time-out were cut off\n');
        process.exit(outcome === 'finished' ? 0 : 1);
      },
      (error: unknown) => {
        process.stderr.write(
          `the stop failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exit(1);
      },
    );
  };
  for (const signal of signals)
    process.on(signal, () => {
      stop(signal);
    });
}
