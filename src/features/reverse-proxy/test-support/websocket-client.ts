import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** A WebSocket client on a bare TCP socket, so a test controls every header and byte. */
export interface TestWebSocket {
  /** The handshake's status: 101 when the socket was opened. */
  readonly status: number;
  /** The whole answer of a refused handshake (head and body). */
  readonly answer: string;
  /** Sends one masked text frame (RFC 6455 §5.2), if the socket is still open. */
  send(text: string): void;
  /** The next text message, or 'closed' if the socket closes first. */
  next(): Promise<string>;
  /** Resolves when the TCP connection has closed. */
  readonly closed: Promise<void>;
  destroy(): void;
}

/**
 * Opens `path` on the gateway at `url` with a WebSocket handshake carrying
 * `headers` (a Cookie, an Origin, ...), and reads the gateway's answer.
 */
export async function openWebSocket(
  url: string,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<TestWebSocket> {
  const { hostname, port, host } = new URL(url);
  const socket = connect(Number(port), hostname);
  // Not events.once: it would reject at the error of a write after the gateway closed.
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      resolve();
    });
  });
  socket.on('error', () => socket.destroy());
  await once(socket, 'connect');
  const lines = [
    `GET ${path} HTTP/1.1`,
    `Host: ${host}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const { head, rest } = await answerHead(socket, closed);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  if (status !== 101) {
    const chunks = [rest];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await closed;
    return refusedSocket(status, head + Buffer.concat(chunks).toString('latin1'), closed);
  }
  return openSocket(socket, rest, closed);
}

/** Reads up to the end of the answer's head; what follows it is `rest`. */
async function answerHead(
  socket: Socket,
  closed: Promise<void>,
): Promise<{ head: string; rest: Buffer }> {
  let received = Buffer.alloc(0);
  const read = new Promise<{ head: string; rest: Buffer }>((resolve) => {
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.pause();
      resolve({
        head: received.subarray(0, end + 4).toString('latin1'),
        rest: received.subarray(end + 4),
      });
    };
    socket.on('data', onData);
  });
  return Promise.race([
    read,
    closed.then(() => ({ head: received.toString('latin1'), rest: Buffer.alloc(0) })),
  ]);
}

function refusedSocket(status: number, answer: string, closed: Promise<void>): TestWebSocket {
  return {
    status,
    answer,
    send: () => undefined,
    next: () => Promise.resolve('closed'),
    closed,
    destroy: () => undefined,
  };
}

function openSocket(socket: Socket, rest: Buffer, closed: Promise<void>): TestWebSocket {
  const received: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  let buffered = rest;
  let isClosed = false;
  const deliver = (text: string): void => {
    const waiter = waiting.shift();
    if (waiter === undefined) received.push(text);
    else waiter(text);
  };
  const readFrames = (): void => {
    for (;;) {
      const frame = unmaskedFrame(buffered);
      if (frame === undefined) return;
      buffered = buffered.subarray(frame.size);
      if (frame.opcode === 0x1) deliver(frame.payload.toString('utf8'));
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    readFrames();
  });
  void closed.then(() => {
    isClosed = true;
    for (const waiter of waiting.splice(0)) waiter('closed');
  });
  readFrames();
  socket.resume();
  return {
    status: 101,
    answer: '',
    send(text) {
      if (!isClosed && !socket.destroyed) socket.write(maskedTextFrame(text));
    },
    next() {
      const first = received.shift();
      if (first !== undefined) return Promise.resolve(first);
      if (isClosed) return Promise.resolve('closed');
      return new Promise((resolve) => waiting.push(resolve));
    },
    closed,
    destroy: () => socket.destroy(),
  };
}

/** A server's frame (unmasked, up to 125 bytes: the echo upstream's). */
function unmaskedFrame(
  data: Buffer,
): { opcode: number; payload: Buffer; size: number } | undefined {
  if (data.length < 2) return undefined;
  const length = (data[1] ?? 0) & 0x7f;
  if (data.length < 2 + length) return undefined;
  return { opcode: (data[0] ?? 0) & 0x0f, payload: data.subarray(2, 2 + length), size: 2 + length };
}

function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  if (payload.length > 125) throw new Error('the test client sends short frames only');
  const mask = randomBytes(4);
  const masked = payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}
