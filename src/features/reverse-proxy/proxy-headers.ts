import type { IncomingMessage } from 'node:http';
import type { LastConnection } from '../../foundation/http/gateway-memory.js';
import { isIdentityHeader } from '../forward-auth/identity-headers.js';

/**
 * Headers between the client and the upstream (RFC 9110 §7.6.1): hop-by-hop
 * headers, and those the Connection header names, stay on their hop. The
 * client's own X-Forwarded-* and Forwarded are dropped too: the gateway is
 * the edge (it trusts no proxy in front of it), so it writes them itself.
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings', // belongs to an h2c upgrade, which is never passed on
]);

const replacedOnRequest = new Set([
  'host',
  'expect', // Node answers 100-continue to the client itself.
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  // Headers some servers and frameworks read as the request's real path: a
  // client could name a path the access rules never saw.
  'x-original-url',
  'x-rewrite-url',
  'x-original-uri',
  'x-forwarded-uri',
  'x-forwarded-path',
  'x-forwarded-prefix',
]);

export interface ForwardContext {
  /** The upstream's host[:port], sent as Host. */
  readonly upstreamHost: string;
  /** The public URL's scheme and host, sent as X-Forwarded-Proto and -Host. */
  readonly publicProto: string;
  readonly publicHost: string;
  /** The gateway's cookie names, never passed on. */
  readonly gatewayCookies: ReadonlySet<string>;
  readonly identity: readonly [string, string][];
  /** A WebSocket handshake: sent with Connection: Upgrade and Upgrade: websocket. */
  readonly upgrade: boolean;
  /** The gateway's memory of the last Connection header read (http/gateway-memory.ts). */
  readonly lastConnection: LastConnection;
}

/** The request headers for the upstream, as a flat [name, value, ...] list keeping duplicates. */
export function upstreamRequestHeaders(
  request: IncomingMessage,
  context: ForwardContext,
): string[] {
  const raw = request.rawHeaders;
  const named = connectionNamed(request.headers.connection, context.lastConnection);
  const headers: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const value = raw[index + 1] ?? '';
    const lower = name.toLowerCase();
    if (hopByHop.has(lower) || replacedOnRequest.has(lower) || named.has(lower)) continue;
    // Any spelling of an identity header is the client's forgery: only the gateway sets them.
    if (isIdentityHeader(lower)) continue;
    if (lower === 'cookie') {
      const kept = withoutCookies(value, context.gatewayCookies);
      if (kept !== '') headers.push(name, kept);
      continue;
    }
    headers.push(name, value);
  }
  headers.push('Host', context.upstreamHost);
  headers.push('X-Forwarded-For', request.socket.remoteAddress ?? '');
  headers.push('X-Forwarded-Proto', context.publicProto);
  headers.push('X-Forwarded-Host', context.publicHost);
  for (const [name, value] of context.identity) headers.push(name, value);
  // Node's client frames a body with chunks by itself only for methods that
  // usually carry one; a chunked GET or DELETE would otherwise go raw onto a
  // pooled connection, where its bytes could read as a second request.
  if (!context.upgrade && request.headers['transfer-encoding'] !== undefined)
    headers.push('Transfer-Encoding', 'chunked');
  if (context.upgrade) {
    headers.push('Connection', 'Upgrade');
    // The only protocol upgraded to: the caller has checked that it was asked for.
    headers.push('Upgrade', 'websocket');
  }
  return headers;
}

/**
 * The upstream's response headers for the client, hop-by-hop ones removed,
 * and any Set-Cookie of a gateway cookie: the application shares the
 * gateway's origin, and must not plant or replace its session.
 */
export function clientResponseHeaders(
  response: IncomingMessage,
  gatewayCookies: ReadonlySet<string>,
  lastConnection: LastConnection,
): string[] {
  const raw = response.rawHeaders;
  // Read from the raw lines: `response.headers` would build an object of
  // every header for this one look.
  const named = connectionNamed(rawConnection(raw), lastConnection);
  const headers: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const value = raw[index + 1] ?? '';
    const lower = name.toLowerCase();
    if (hopByHop.has(lower) || named.has(lower)) continue;
    if (lower === 'set-cookie' && gatewayCookies.has(value.split('=', 1)[0]?.trim() ?? ''))
      continue;
    headers.push(name, value);
  }
  return headers;
}

/** The Connection header of raw header lines, its lines joined as Node joins them. */
function rawConnection(raw: readonly string[]): string | undefined {
  let connection: string | undefined;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (raw[index]?.length !== 10 || raw[index]?.toLowerCase() !== 'connection') continue;
    const value = raw[index + 1] ?? '';
    connection = connection === undefined ? value : `${connection}, ${value}`;
  }
  return connection;
}

const nothingNamed: ReadonlySet<string> = new Set();

/**
 * The header names a Connection header lists, kept in the gateway's memory
 * of the last one read (http/gateway-memory.ts): nearly every message
 * carries the same one, or none.
 */
function connectionNamed(
  connection: string | undefined,
  last: LastConnection,
): ReadonlySet<string> {
  if (connection === undefined) return nothingNamed;
  if (connection !== last.header) {
    last.named = new Set(connection.split(',').map((token) => token.trim().toLowerCase()));
    last.header = connection;
  }
  return last.named;
}

/** The Cookie header without the gateway's own cookies: the session id never leaves the gateway. */
function withoutCookies(header: string, names: ReadonlySet<string>): string {
  // One pass, no lists: it runs on every proxied request.
  let kept = '';
  for (let start = 0; start < header.length;) {
    const semicolon = header.indexOf(';', start);
    const end = semicolon === -1 ? header.length : semicolon;
    const pair = header.slice(start, end).trim();
    const eq = pair.indexOf('=');
    const name = (eq === -1 ? pair : pair.slice(0, eq)).trim();
    if (name !== '' && !names.has(name)) kept = kept === '' ? pair : `${kept}; ${pair}`;
    start = end + 1;
  }
  return kept;
}
