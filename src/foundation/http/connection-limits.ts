import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Gateway } from './gateway.js';
import { codedFailure } from './respond.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The limits that keep a client from holding connections open for nothing
 * (a slow-loris client exhausting file descriptors):
 * - the request head must arrive whole within the headers time-out, however
 *   it trickles (Node checks open heads every quarter of it, at most 5 s);
 * - a connection that carries nothing either way for the idle time-out is
 *   closed (Node's socket time-out), including one that never sends a byte
 *   and a proxied body or answer that stalls;
 * - a body to the gateway's own routes must arrive whole within the body
 *   time-out (withBodyDeadline below).
 * A proxied body streams for as long as it keeps moving, bounded by the
 * idle time-out alone; a WebSocket has its own idle time-out
 * (proxy-upgrade.ts). Node's requestTimeout would cut proxied uploads too,
 * so it stays off.
 */
export function serverLimits(gateway: Gateway): ServerOptions {
  const { headersTimeoutMs, idleTimeoutMs } = gateway.config;
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(headersTimeoutMs / 4))),
    // Between requests, the usual 72 s (above the 60 s many load balancers
    // keep), unless the idle time-out is shorter.
    keepAliveTimeout: Math.min(72_000, idleTimeoutMs),
  };
}

const deadlines = new WeakMap<IncomingMessage, NodeJS.Timeout>();

/**
 * Gives every request's body the body time-out, counted from the end of
 * its head: a body still incomplete then gets `408 request_timeout` and the
 * connection is closed. A request whose body is proxied is let off by
 * streamsBody(). The timer goes when the answer is done.
 */
export function withBodyDeadline(
  gateway: Gateway,
  log: () => FastifyBaseLogger,
  handler: Handler,
): Handler {
  const { bodyTimeoutMs } = gateway.config;
  return (request, response) => {
    const timer = setTimeout(() => {
      if (request.complete) return;
      if (response.headersSent) {
        request.socket.destroy();
        return;
      }
      const { status, body } = codedFailure(
        gateway,
        log(),
        'request_timeout',
        `the body did not arrive within ${bodyTimeoutMs} ms`,
      );
      // Answered here, the reply is sent as far as the framework is
      // concerned; Connection: close makes Node close the socket after it.
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      response.end(body);
    }, bodyTimeoutMs);
    deadlines.set(request, timer);
    response.once('close', () => {
      clearTimeout(timer);
    });
    handler(request, response);
  };
}

/**
 * Lets a request's body take as long as it keeps moving: for a body the
 * reverse proxy streams to an upstream, which the idle time-out bounds.
 */
export function streamsBody(request: IncomingMessage): void {
  clearTimeout(deadlines.get(request));
}
