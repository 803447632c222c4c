import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';

/** One HTTP/1.1 request as an upstream's parser would frame it from the bytes. */
export interface FramedRequest {
  readonly head: string;
  /** The body after de-chunking, as latin1 text. */
  readonly body: string;
}

/**
 * Reads HTTP/1.1 requests off a byte stream the way a strict server does:
 * a chunked body by its chunks, a Content-Length body by its length, and
 * no body at all without either. `rest` is what is left over, not yet a
 * whole request.
 */
export function frameRequests(bytes: string): { requests: FramedRequest[]; rest: string } {
  const requests: FramedRequest[] = [];
  let at = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const head = bytes.slice(at, end);
    let cursor = end + 4;
    let body = '';
    if (/^transfer-encoding:\s*chunked\s*$/im.test(head)) {
      let done = false;
      for (;;) {
        const line = bytes.indexOf('\r\n', cursor);
        if (line === -1) break;
        const size = Number.parseInt(bytes.slice(cursor, line), 16);
        if (Number.isNaN(size)) break;
        if (size === 0) {
          if (bytes.startsWith('\r\n', line + 2)) {
            cursor = line + 4;
            done = true;
          }
          break;
        }
        if (bytes.length < line + 2 + size + 2) break;
        body += bytes.slice(line + 2, line + 2 + size);
        cursor = line + 2 + size + 2;
      }
      if (!done) break;
    } else {
      const length = /^content-length:\s*(\d+)\s*$/im.exec(head)?.[1];
      if (length !== undefined) {
        if (bytes.length < cursor + Number(length)) break;
        body = bytes.slice(cursor, cursor + Number(length));
        cursor += Number(length);
      }
    }
    requests.push({ head, body });
    at = cursor;
  }
  return { requests, rest: bytes.slice(at) };
}

export interface RawUpstream {
  readonly url: string;
  /** Every byte received, per connection, as latin1 text. */
  readonly received: string[];
  close(): Promise<void>;
}

/**
 * An upstream on a raw socket that records the bytes it receives and answers
 * each request it can frame with a short keep-alive `200 ok`: framing tests
 * see exactly what the gateway put on the wire.
 */
export async function startRawUpstream(): Promise<RawUpstream> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const index = received.push('') - 1;
    let answered = 0;
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      received[index] = (received[index] ?? '') + chunk.toString('latin1');
      const { requests } = frameRequests(received[index] ?? '');
      for (; answered < requests.length; answered += 1)
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Writes `bytes` on a fresh socket to `url` and resolves with all it reads until the server closes. */
export function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes, 'latin1'));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}
