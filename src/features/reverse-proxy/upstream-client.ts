import http from 'node:http';
import https from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Upstream } from '../../foundation/config/proxy-settings.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { parsedUrl } from './forward-context.js';

/** A connection that does not complete in this long counts as down, however long the response may take. */
const connectTimeoutMs = 5_000;

/**
 * How long a pooled connection may sit idle before the gateway closes it:
 * below the keep-alive time-outs of common application servers (5 s in
 * Node.js, Apache httpd and uvicorn), so the gateway closes an idle
 * connection before the application does, rather than sending a request on
 * it as the application closes it. An application that announces a shorter
 * one (`Keep-Alive: timeout=N`) is honoured, a second early: Node's agent
 * only reads that hint when an idle time is set at all.
 */
const pooledIdleMs = 4_000;

/**
 * One keep-alive agent per upstream origin, so proxied requests reuse
 * connections; the gateway's own, closed with it (gateway-memory.ts).
 */
function agentFor(gateway: Gateway, origin: string): http.Agent {
  const agents = gateway.memory.upstreamAgents;
  let agent = agents.get(origin);
  if (agent === undefined) {
    // `timeout` only closes idle pooled sockets: a request in progress has
    // no 'timeout' listener, so its socket's time-out does nothing to it.
    const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: pooledIdleMs };
    agent = origin.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
    agents.set(origin, agent);
  }
  return agent;
}

type UpstreamFailure = 'refused' | 'timeout';

interface UpstreamCall {
  readonly request: ClientRequest;
  /** Settles once: the response head (or a WebSocket upgrade), or why there is none. */
  readonly outcome: Promise<
    | { readonly kind: 'response'; readonly response: IncomingMessage }
    | {
        readonly kind: 'upgrade';
        readonly response: IncomingMessage;
        readonly socket: import('node:net').Socket;
        readonly head: Buffer;
      }
    | {
        readonly kind: 'failed';
        readonly failure: UpstreamFailure;
        readonly detail: string;
        /**
         * The request went out on a pooled connection the upstream had
         * closed meanwhile (its keep-alive time-out ending as the request
         * arrived): the upstream answered nothing of it.
         */
        readonly staleConnection: boolean;
      }
  >;
}

/** How a connection the upstream has closed fails the next request sent on it. */
const closedConnectionCodes = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Closes the idle pooled connections to `origin`. The agent hands out the
 * connection used last first, so when that one turned out closed by the
 * upstream, those idle longer are closed too, or about to be.
 */
function dropIdleConnections(gateway: Gateway, origin: string): void {
  const agent = gateway.memory.upstreamAgents.get(origin);
  if (agent === undefined) return;
  for (const sockets of Object.values(agent.freeSockets)) {
    for (const socket of sockets ?? []) socket.destroy();
  }
}

/**
 * Which connection a call goes out on: a pooled one (`pooled`), a new one
 * of its own that is closed after the response (`fresh`: the retry after a
 * pooled one was met closed), or one taken for a WebSocket (`upgrade`).
 */
type Connection = 'pooled' | 'fresh' | 'upgrade';

/**
 * Starts a request to an upstream. The caller writes (or pipes) the body and
 * ends it. A connection not made within 5 s (or the time-out, if shorter), or
 * a response head not received within `timeoutMs` of the request's end,
 * fails the call and destroys the request: a hung upstream never hangs the
 * client. The time-out counts from the end of the body, so an upload takes
 * as long as it keeps moving (the idle time-out of http/connection-limits.ts
 * closes one that stalls).
 */
export function callUpstream(
  gateway: Gateway,
  upstream: Upstream,
  method: string,
  path: string,
  headers: string[],
  timeoutMs: number,
  connection: Connection,
): UpstreamCall {
  const upgrade = connection === 'upgrade';
  const url = parsedUrl(gateway, upstream.origin);
  const client = url.protocol === 'https:' ? https : http;
  const request = client.request({
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? undefined : Number(url.port),
    method,
    path,
    headers,
    // A WebSocket takes its connection away from the pool for good; a retry
    // must not meet another stale pooled one.
    agent: connection === 'pooled' ? agentFor(gateway, upstream.origin) : false,
  });
  const outcome = new Promise<Awaited<UpstreamCall['outcome']>>((resolve) => {
    let settled = false;
    const settle = (value: Awaited<UpstreamCall['outcome']>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(responseTimer);
      clearTimeout(connectTimer);
      resolve(value);
    };
    const fail = (failure: UpstreamFailure, detail: string, staleConnection = false): void => {
      settle({ kind: 'failed', failure, detail, staleConnection });
      request.destroy();
    };
    let responseTimer: NodeJS.Timeout | undefined;
    request.on('finish', () => {
      if (settled) return;
      responseTimer = setTimeout(() => {
        fail('timeout', `no response within ${timeoutMs} ms`);
      }, timeoutMs);
    });
    let connectTimer: NodeJS.Timeout | undefined;
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => {
          fail('refused', 'the connection was not made within the connect time-out');
        },
        Math.min(connectTimeoutMs, timeoutMs),
      );
      socket.once('connect', () => {
        clearTimeout(connectTimer);
      });
    });
    request.on('response', (response) => {
      settle({ kind: 'response', response });
    });
    // Without a listener, Node destroys the socket of an upgrade nobody asked for.
    if (upgrade)
      request.on('upgrade', (response, socket, head) => {
        settle({ kind: 'upgrade', response, socket, head });
      });
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && closedConnectionCodes.has(error.code ?? '');
      if (stale) dropIdleConnections(gateway, upstream.origin);
      fail('refused', error.code ?? error.message, stale);
    });
  });
  return { request, outcome };
}
