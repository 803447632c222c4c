import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { streamsBody } from '../../foundation/http/connection-limits.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import type { Upstream } from '../../foundation/config/proxy-settings.js';
import { SsogateError } from '../../core/index.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import type { ForwardContext } from './proxy-headers.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './proxy-headers.js';
import { callUpstream } from './upstream-client.js';

/** Methods whose request may be sent again after a connection failure (RFC 9110 §9.2.2). */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** Whether a request can be sent again as it was: idempotent, and without a body. */
function replayable(method: string, incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return (
    idempotentMethods.has(method) &&
    (length === undefined || length === '0') &&
    incoming.headers['transfer-encoding'] === undefined
  );
}

/** Proxies one request that Fastify routed (routes.ts); see forwardToUpstream. */
export async function proxyHttp(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: Upstream,
  path: string,
  context: ForwardContext,
): Promise<FastifyReply> {
  const failure = await forwardToUpstream(gateway, request.log, request.raw, reply.raw, {
    upstream,
    path,
    context,
    beforeHead: () => {
      reply.hijack();
    },
  });
  if (failure !== undefined) {
    sendFailure(gateway, request, reply, failure, { tryAgainHref: safeReturnTo(path) });
  }
  return reply;
}

interface ForwardTarget {
  readonly upstream: Upstream;
  /** The path and query sent upstream (proxy-target.ts). */
  readonly path: string;
  readonly context: ForwardContext;
  /** Called just before the response head is written to the client. */
  readonly beforeHead?: () => void;
}

/**
 * Proxies one request to its upstream. The body is piped as it arrives, with
 * backpressure both ways; nothing is buffered. Resolves undefined once the
 * upstream's response is being passed on; until the upstream answers, a
 * failure resolves the coded error to answer with (upstream_unavailable,
 * upstream_timeout) and nothing has been written to the client; once the
 * response has started, a failure can only cut the connection.
 */
export async function forwardToUpstream(
  gateway: Gateway,
  log: FastifyBaseLogger,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  target: ForwardTarget,
): Promise<SsogateError | undefined> {
  const { upstream, path } = target;
  // The body streams for as long as it keeps moving; the idle time-out
  // closes one that stalls (http/connection-limits.ts).
  streamsBody(incoming);
  const headers = upstreamRequestHeaders(incoming, target.context);
  const observed = gateway.telemetry.proxyStarted(upstream.origin, headers, incoming.headers);
  const method = incoming.method ?? 'GET';
  const send = (connection: 'pooled' | 'fresh') =>
    callUpstream(
      gateway,
      upstream,
      method,
      path,
      headers,
      gateway.config.upstreamTimeoutMs,
      connection,
    );
  let call = send('pooled');
  // A client that goes away stops the upstream request too.
  const abandon = (): void => {
    if (!outgoing.writableFinished) call.request.destroy();
  };
  outgoing.once('close', abandon);
  // pipe() rather than pipeline(): same backpressure, a fraction of the cost
  // per request; errors of the upstream side come through the outcome below.
  incoming.on('error', abandon);
  incoming.pipe(call.request);

  let outcome = await call.outcome;
  if (outcome.kind === 'failed' && outcome.staleConnection && replayable(method, incoming)) {
    // The upstream closed an idle pooled connection as this request arrived
    // on it. Sent again once, as RFC 9110 §9.2.2 allows for an idempotent
    // request: the body it does not have cannot have been half read. On a
    // new connection: the other idle ones may have been closed just the same.
    call = send('fresh');
    call.request.end();
    outcome = await call.outcome;
  }
  gateway.telemetry.proxyFinished(
    observed,
    'response' in outcome ? outcome.response.statusCode : undefined,
  );
  if (outcome.kind === 'failed') {
    outgoing.off('close', abandon);
    const code = outcome.failure === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable';
    return new SsogateError(
      code,
      `${upstream.origin}${path.split('?')[0] ?? ''}: ${outcome.detail}`,
    );
  }
  const { response } = outcome;
  if (outcome.kind === 'upgrade') outcome.socket.destroy(); // not asked for; cannot happen
  target.beforeHead?.();
  outgoing.writeHead(
    response.statusCode ?? 502,
    response.statusMessage,
    clientResponseHeaders(response, target.context.gatewayCookies, target.context.lastConnection),
  );
  response.on('error', () => {
    log.warn(
      { code: 'upstream_unavailable', upstream: upstream.origin },
      'the upstream response broke off',
    );
    outgoing.destroy();
  });
  response.pipe(outgoing);
  return undefined;
}
