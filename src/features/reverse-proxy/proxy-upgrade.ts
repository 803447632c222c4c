import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Gateway } from '../../foundation/http/gateway.js';
import { endWithFailure } from '../../foundation/http/respond.js';
import type {
  ConnectionVerdict,
  UpgradedConnection,
} from '../../foundation/http/upgraded-connections.js';
import { accessAllowed, underPrefix } from '../access-rules/access-rules.js';
import type { ErrorCode } from '../../core/index.js';
import { sessionOf } from '../sessions/request-session.js';
import { resolveSession } from '../sessions/session-service.js';
import type { Upstream } from '../../foundation/config/proxy-settings.js';
import { normaliseHost } from '../../foundation/config/proxy-settings.js';
import { forwardContext, gatewayCookies, parsedUrl, rulesHost } from './forward-context.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './proxy-headers.js';
import { proxyTarget } from './proxy-target.js';
import { callUpstream } from './upstream-client.js';

/**
 * A WebSocket handshake (an HTTP/1.1 Upgrade) to an internal resource: the
 * same session check and access rules as any request, then the upstream's
 * 101 is relayed and the two sockets are joined, and the connection is
 * registered with the gateway's upgraded connections, which close it when
 * its session ends (src/foundation/http/upgraded-connections.ts). Fastify does not see
 * these requests, so refusals are written here, as JSON with a code.
 */
export async function proxyUpgrade(
  gateway: Gateway,
  log: FastifyBaseLogger,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  socket.on('error', () => socket.destroy());
  // Node stops watching the idle time-out of an upgraded connection; until
  // the handshake is relayed, the server's idle time-out still closes it.
  socket.on('timeout', () => socket.destroy());
  const target = proxyTarget(gateway.config.upstreams, request.url ?? '/', request.headers.host);
  // Only a WebSocket handshake is tunnelled: another protocol (h2c, say)
  // would carry requests the gateway never sees.
  if (!websocketHandshake(request)) {
    refuse(gateway, log, socket, 'request_invalid');
    return;
  }
  // Fastify's routing keeps /_sso/ for the gateway, which has no WebSocket
  // routes; upgrades bypass that routing, so the same rule holds here.
  if ('refused' in target) {
    refuse(gateway, log, socket, 'request_invalid', target.refused);
    return;
  }
  const reserved = underPrefix(target.matchPath.toLowerCase(), '/_sso');
  if (target.upstream === undefined || reserved) {
    refuse(gateway, log, socket, 'not_found');
    return;
  }
  if (!sameSite(gateway, request, target.upstream)) {
    refuse(gateway, log, socket, 'origin_refused', 'WebSocket handshake from another site');
    return;
  }
  const { upgradedConnections } = gateway;
  const generationBefore = upgradedConnections.currentGeneration();
  let active;
  try {
    active = await sessionOf(gateway, request, { remembered: true });
  } catch {
    refuse(gateway, log, socket, 'service_unavailable');
    return;
  }
  if (active === undefined) {
    refuse(gateway, log, socket, 'unauthenticated');
    return;
  }
  const { upstream } = target;
  if (
    !accessAllowed(
      gateway.config.accessRules,
      rulesHost(gateway, upstream),
      target.matchPath,
      active.user,
      gateway.memory.lastHost,
      { session: active.session, now: gateway.clock() },
    )
  ) {
    refuse(gateway, log, socket, 'access_denied');
    return;
  }
  const call = callUpstream(
    gateway,
    upstream,
    request.method ?? 'GET',
    target.path,
    upstreamRequestHeaders(request, forwardContext(gateway, upstream, active.user, true)),
    gateway.config.upstreamTimeoutMs,
    'upgrade',
  );
  socket.once('close', () => call.request.destroy());
  call.request.end();
  const outcome = await call.outcome;
  if (outcome.kind === 'failed') {
    refuse(
      gateway,
      log,
      socket,
      outcome.failure === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable',
    );
    return;
  }
  const { response } = outcome;
  const lines = [`HTTP/1.1 ${response.statusCode ?? 502} ${response.statusMessage ?? ''}`];
  const headers =
    outcome.kind === 'upgrade'
      ? response.rawHeaders
      : clientResponseHeaders(response, gatewayCookies, gateway.memory.lastConnection);
  for (let index = 0; index + 1 < headers.length; index += 2)
    lines.push(`${headers[index] ?? ''}: ${headers[index + 1] ?? ''}`);
  if (outcome.kind === 'response') {
    // The upstream declined the upgrade: relay its answer and close.
    lines.push('Connection: close');
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    response.pipe(socket);
    return;
  }
  const upstreamSocket = outcome.socket;
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (outcome.head.length > 0) socket.write(outcome.head);
  if (head.length > 0) upstreamSocket.write(head);
  let held = false;
  const connection: UpgradedConnection = {
    sessionId: active.id,
    idHash: active.session.idHash,
    signInHash: active.session.signInHash,
    userRowId: active.session.userRowId,
    entryId: active.session.entryId,
    matchPath: target.matchPath,
    rulesHost: rulesHost(gateway, upstream),
    hold() {
      held = true;
      socket.pause();
      upstreamSocket.pause();
    },
    release() {
      held = false;
      socket.resume();
      upstreamSocket.resume();
    },
    close() {
      socket.destroy();
      upstreamSocket.destroy();
    },
  };
  const close = (): void => {
    upgradedConnections.delete(connection);
    connection.close();
  };
  upstreamSocket.on('error', close).on('close', close);
  socket.on('close', close);
  // Bytes either way pass through the client's socket, so its time-out
  // measures the WebSocket's idleness in both directions.
  if (socket instanceof Socket) socket.setTimeout(gateway.config.websocketIdleTimeoutMs, close);
  relay(upstreamSocket, socket, () => held);
  relay(socket, upstreamSocket, () => held);
  upgradedConnections.add(connection, generationBefore);
}

/**
 * Copies `from` to `to` as pipe() would (pausing while `to` is full, ending
 * it at the end), except that a held connection stays paused: pipe() would
 * resume it at the next drain.
 */
function relay(from: Duplex, to: Duplex, held: () => boolean): void {
  from.on('data', (chunk: Buffer) => {
    if (!to.write(chunk)) from.pause();
  });
  to.on('drain', () => {
    if (!held()) from.resume();
  });
  from.on('end', () => to.end());
  from.resume();
}

/**
 * Whether an open connection's session is still valid and still lets its
 * user reach the path, read from storage as at a handshake. The check is not
 * the user's activity: an open socket does not keep its session alive.
 */
export async function upgradeStillAllowed(
  gateway: Gateway,
  connection: UpgradedConnection,
): Promise<ConnectionVerdict> {
  let active;
  try {
    active = await resolveSession(gateway.sessions, connection.sessionId, { activity: false });
  } catch {
    return 'unknown';
  }
  if (active === undefined) return 'ended';
  const { accessRules } = gateway.config;
  return accessAllowed(
    accessRules,
    connection.rulesHost,
    connection.matchPath,
    active.user,
    gateway.memory.lastHost,
    { session: active.session, now: gateway.clock() },
  )
    ? 'open'
    : 'ended';
}

/**
 * A browser's handshake carries the Origin of the page that opened it, and
 * cookies go with it whatever that page is: a handshake from a page of
 * another site would act with the user's session (cross-site WebSocket
 * hijacking, RFC 6455 §10.2). So the Origin must be the one the upstream
 * is served on: its own host for a host-keyed upstream, else the public
 * URL's; a client that sends no Origin is not a browser, and has only its
 * own cookie to offer.
 */
function sameSite(gateway: Gateway, request: IncomingMessage, upstream: Upstream): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const publicUrl = parsedUrl(gateway, gateway.config.publicUrl);
  try {
    const from = new URL(origin);
    return upstream.host === undefined
      ? from.origin === publicUrl.origin
      : `${from.protocol}//${normaliseHost(from.host)}` ===
          `${publicUrl.protocol}//${upstream.host}`;
  } catch {
    return false;
  }
}

/** A GET asking for `Upgrade: websocket` and nothing else, with its key. */
function websocketHandshake(request: IncomingMessage): boolean {
  const key = request.headers['sec-websocket-key'];
  return (
    request.method === 'GET' &&
    request.headers.upgrade?.trim().toLowerCase() === 'websocket' &&
    typeof key === 'string' &&
    key.trim() !== ''
  );
}

function refuse(
  gateway: Gateway,
  log: FastifyBaseLogger,
  socket: Duplex,
  code: ErrorCode,
  why = 'WebSocket handshake refused',
): void {
  endWithFailure(gateway, log, socket, code, why);
}
