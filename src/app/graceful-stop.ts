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
export async function stopGracefully(
  gateway: RunningGateway,
  timeoutMs: number,
): Promise<StopOutcome> {
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
