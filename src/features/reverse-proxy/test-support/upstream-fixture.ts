import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Gateway } from '../../../foundation/http/gateway.js';
import { createSession } from '../../sessions/session-service.js';
import type { UserAttributes } from '../../../foundation/storage/types.js';
import { cookieNames } from '../../../foundation/web/index.js';

/** What the echo upstream saw of one request. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly bodyBytes: number;
  readonly bodySha256: string;
}

export interface EchoUpstream {
  readonly url: string;
  /** Every request, in order of arrival. */
  readonly seen: Seen[];
  /** Every WebSocket text message received, in order of arrival. */
  readonly messages: string[];
  /** Emits 'message' (the text) and 'websocket-closed' as they happen. */
  readonly events: EventEmitter;
  close(): Promise<void>;
}

/**
 * An application on a loopback port for proxy tests: it answers every request
 * with JSON describing what it received (method, URL, headers, the size and
 * SHA-256 of the body, read as a stream), `/slow` after the given delay. It
 * sets two cookies of its own (and, if asked, every cookie named like the
 * gateway's), and echoes WebSocket text messages (RFC 6455, small
 * unfragmented frames).
 */
export async function startEchoUpstream(
  options: { slowMs?: number; plantSessionCookie?: boolean } = {},
): Promise<EchoUpstream> {
  const seen: Seen[] = [];
  const messages: string[] = [];
  const events = new EventEmitter();
  const sockets = new Set<Socket | Duplex>();
  const server: Server = createServer((request, response) => {
    const hash = createHash('sha256');
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    request.on('end', () => {
      const record: Seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        bodyBytes: bytes,
        bodySha256: hash.digest('hex'),
      };
      seen.push(record);
      const answer = (): void => {
        response.setHeader('content-type', 'application/json');
        response.setHeader('set-cookie', [
          'app=1; Path=/',
          ...(options.plantSessionCookie === true
            ? [
                'ssogate_session=planted; Path=/',
                '__Host-ssogate_session=planted; Path=/; Secure',
                ' ssogate_binding=planted; Path=/',
                '__Host-ssogate_binding=planted; Path=/; Secure',
              ]
            : []),
          'other=2; Path=/',
        ]);
        response.setHeader('x-upstream', 'echo');
        response.end(JSON.stringify(record));
      };
      if (request.url === '/slow') setTimeout(answer, options.slowMs ?? 0);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (request, socket: Duplex) => {
    sockets.add(socket);
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      rawHeaders: request.rawHeaders,
      bodyBytes: 0,
      bodySha256: '',
    });
    const accept = createHash('sha1')
      .update(`${String(request.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const frame = readFrame(buffered);
        if (frame === undefined) return;
        buffered = buffered.subarray(frame.size);
        if (frame.opcode === 0x8) {
          socket.end(Buffer.from([0x88, 0x00]));
          return;
        }
        if (frame.opcode === 0x1) {
          const text = frame.payload.toString('utf8');
          messages.push(text);
          events.emit('message', text);
          socket.write(textFrame(`echo: ${text}`));
        }
      }
    });
    socket.on('error', () => socket.destroy());
    // The server's upgraded sockets are half-open: the gateway's end is the socket's end.
    socket.on('end', () => socket.destroy());
    socket.on('close', () => events.emit('websocket-closed'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    messages,
    events,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

function readFrame(data: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
  if (data.length < 2) return undefined;
  const opcode = (data[0] ?? 0) & 0x0f;
  const masked = ((data[1] ?? 0) & 0x80) !== 0;
  let length = (data[1] ?? 0) & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return undefined;
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    throw new Error('the test upstream reads frames up to 64 KiB');
  }
  const mask = masked ? data.subarray(offset, offset + 4) : undefined;
  if (masked) offset += 4;
  if (data.length < offset + length) return undefined;
  const payload = Buffer.from(data.subarray(offset, offset + length));
  if (mask !== undefined)
    for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return { opcode, payload, size: offset + length };
}

function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  if (payload.length > 125) throw new Error('the test upstream sends short frames only');
  return Buffer.concat([Buffer.from([0x81, payload.length]), payload]);
}

/** A user signed in directly in storage, and the Cookie header naming its session. */
export async function signedInCookie(
  gateway: Gateway,
  userId: string,
  attributes: UserAttributes & { isAdmin?: boolean } = {},
): Promise<string> {
  const now = gateway.clock();
  const { user } = await gateway.storage.users.insertIfAbsent(
    { userId, sourceEntryId: null, ...attributes },
    now,
  );
  const sessionId = await createSession(gateway.sessions, user, null, undefined);
  return `${cookieNames(gateway.config.secureCookies).session}=${sessionId}`;
}
