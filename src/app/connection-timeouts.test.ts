import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { WebSocket } from 'undici';
import type {
  EchoUpstream,
  Seen,
} from '../features/reverse-proxy/test-support/upstream-fixture.js';
import {
  signedInCookie,
  startEchoUpstream,
} from '../features/reverse-proxy/test-support/upstream-fixture.js';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import { startTestGateway } from '../test-support/gateway-fixture.js';

/**
 * Far longer than any limit set below: these are hang checks, not timing
 * assertions. A connection still open after this was never going to close.
 */
const hangBoundMs = 20_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw connection to the gateway that records what it reads and whether it closed. */
async function openRaw(url: string): Promise<{
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve).once('error', reject);
  });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      resolve();
    }),
  );
  return { socket, received: () => Buffer.concat(chunks).toString('latin1'), closed };
}

/** Resolves true once the socket closes, false if it is still open after the hang bound. */
async function closesInTime(closed: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, hangBoundMs);
  });
  try {
    return await Promise.race([closed.then(() => true), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

describe('connection time-outs', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let cookie: string;
  let host: string;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway({
      env: {
        SSOGATE_UPSTREAM: upstream.url,
        SSOGATE_UPSTREAM_TIMEOUT_SECONDS: '2',
        SSOGATE_HEADERS_TIMEOUT_SECONDS: '1',
        SSOGATE_BODY_TIMEOUT_SECONDS: '1',
        SSOGATE_IDLE_TIMEOUT_SECONDS: '2',
        SSOGATE_WEBSOCKET_IDLE_TIMEOUT_SECONDS: '2',
      },
    });
    cookie = await signedInCookie(gw.gateway, 'bob');
    host = new URL(gw.url).host;
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  test('a request head that never ends is closed', async () => {
    const raw = await openRaw(gw.url);
    raw.socket.write(`GET /_sso/me HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `);
    // Keep sending header bytes, slowly: activity alone does not keep it open.
    const trickle = setInterval(() => raw.socket.write('a'), 200);
    try {
      assert.ok(await closesInTime(raw.closed), 'the connection is still open');
    } finally {
      clearInterval(trickle);
    }
    assert.match(raw.received(), /^(HTTP\/1\.1 408 |$)/);
  });

  test("a body to the gateway's own routes that stalls, or trickles, is closed with a coded 408", async () => {
    for (const trickling of [false, true]) {
      const raw = await openRaw(gw.url);
      raw.socket.write(
        `POST /_sso/logout HTTP/1.1\r\nHost: ${host}\r\n` +
          'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nnext=',
      );
      const trickle = trickling ? setInterval(() => raw.socket.write('a'), 200) : undefined;
      try {
        assert.ok(await closesInTime(raw.closed), `still open (trickling: ${String(trickling)})`);
      } finally {
        clearInterval(trickle);
      }
      assert.match(raw.received(), /^HTTP\/1\.1 408 [^]*"code":"request_timeout"/);
    }
  });

  test('a connection that sends nothing at all is closed', async () => {
    const raw = await openRaw(gw.url);
    assert.ok(await closesInTime(raw.closed), 'the connection is still open');
  });

  test('a proxied body that stalls for the idle limit is closed, and the upstream never answers it', async () => {
    const raw = await openRaw(gw.url);
    raw.socket.write(
      `POST /stalled-upload HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n` +
        'Content-Length: 1000\r\n\r\nsome of the body',
    );
    assert.ok(await closesInTime(raw.closed), 'the connection is still open');
    assert.ok(!upstream.seen.some((seen) => seen.url === '/stalled-upload'));
  });

  test('a proxied body that keeps coming, however slowly, goes through whole', async () => {
    const raw = await openRaw(gw.url);
    const pieces = 16;
    raw.socket.write(
      `POST /slow-upload HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n` +
        `Content-Length: ${pieces}\r\nConnection: close\r\n\r\n`,
    );
    // Longer in all than the body and idle limits, with no gap near either.
    for (let sent = 0; sent < pieces; sent += 1) {
      await pause(250);
      raw.socket.write('x');
    }
    assert.ok(await closesInTime(raw.closed), 'no answer came');
    assert.match(raw.received(), /^HTTP\/1\.1 200 /);
    const seen = JSON.parse(raw.received().split('\r\n\r\n')[1] ?? '') as Seen;
    assert.equal(seen.url, '/slow-upload');
    assert.equal(seen.bodyBytes, pieces);
  });

  test('a WebSocket is closed after its idle limit, and kept while messages flow', async () => {
    const open = async () => {
      const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/socket`, {
        headers: { cookie },
      });
      const closed = new Promise<void>((resolve) => {
        socket.addEventListener('close', () => {
          resolve();
        });
      });
      await new Promise<void>((resolve, reject) => {
        socket.addEventListener('open', () => {
          resolve();
        });
        socket.addEventListener('error', () => {
          reject(new Error('WebSocket failed'));
        });
      });
      return { socket, closed };
    };

    const active = await open();
    const replies: string[] = [];
    active.socket.addEventListener('message', (event) => replies.push(String(event.data)));
    let activeClosed = false;
    void active.closed.then(() => (activeClosed = true));
    // Three times the idle limit, a message every quarter second.
    for (let sent = 0; sent < 24; sent += 1) {
      active.socket.send(`ping ${sent}`);
      await pause(250);
    }
    assert.equal(activeClosed, false, 'an active WebSocket was closed');
    assert.ok(replies.length >= 20, `only ${replies.length} echoes came back`);

    const idle = await open();
    assert.ok(await closesInTime(idle.closed), 'the idle WebSocket is still open');
    active.socket.close();
  });
});
