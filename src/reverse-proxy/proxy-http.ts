import type { FastifyReply, FastifyRequest } from 'fastify';
import { streamsBody } from '../http/connection-limits.js';
import type { Gateway } from '../http/gateway.js';
import { sendFailure } from '../http/respond.js';
import type { Upstream } from '../config/proxy-settings.js';
import { SsogateError } from '../core/index.js';
import type { UserRecord } from '../storage/types.js';
import { safeReturnTo } from '../web/index.js';
import { forwardContext, gatewayCookies } from './forward-context.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './proxy-headers.js';
import { callUpstream } from './upstream-client.js';

/**
 * Proxies one request to its upstream. The body is piped as it arrives, with
 * backpressure both ways; nothing is buffered. Until the upstream answers,
 * a failure is a coded page or JSON (502 refused, 504 timed out); once the
 * response has started, a failure can only cut the connection.
 */
export async function proxyHttp(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: Upstream,
  path: string,
  user: UserRecord,
): Promise<FastifyReply> {
  const incoming = request.raw;
  // The body streams for as long as it keeps moving; the idle time-out
  // closes one that stalls (http/connection-limits.ts).
  streamsBody(incoming);
  const headers = upstreamRequestHeaders(incoming, forwardContext(gateway, upstream, user, false));
  const observed = gateway.telemetry.proxyStarted(upstream.origin, headers, incoming.headers);
  const call = callUpstream(
    upstream,
    request.method,
    path,
    headers,
    gateway.config.upstreamTimeoutMs,
    false,
  );
  // A client that goes away stops the upstream request too.
  const abandon = (): void => {
    if (!reply.raw.writableFinished) call.request.destroy();
  };
  reply.raw.once('close', abandon);
  // pipe() rather than pipeline(): same backpressure, a fraction of the cost
  // per request; errors of the upstream side come through the outcome below.
  incoming.on('error', abandon);
  incoming.pipe(call.request);

  const outcome = await call.outcome;
  gateway.telemetry.proxyFinished(
    observed,
    'response' in outcome ? outcome.response.statusCode : undefined,
  );
  if (outcome.kind === 'failed') {
    reply.raw.off('close', abandon);
    const code = outcome.failure === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable';
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError(code, `${upstream.origin}${path.split('?')[0] ?? ''}: ${outcome.detail}`),
      { tryAgainHref: safeReturnTo(path) },
    );
    return reply;
  }
  const { response } = outcome;
  if (outcome.kind === 'upgrade') outcome.socket.destroy(); // not asked for; cannot happen
  reply.hijack();
  reply.raw.writeHead(
    response.statusCode ?? 502,
    response.statusMessage,
    clientResponseHeaders(response, gatewayCookies),
  );
  response.on('error', () => {
    request.log.warn(
      { code: 'upstream_unavailable', upstream: upstream.origin },
      'the upstream response broke off',
    );
    reply.raw.destroy();
  });
  response.pipe(reply.raw);
  return reply;
}
