import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { signedInCookie } from './test-support/upstream-fixture.js';

/**
 * An application that closes every connection the moment a second request
 * arrives on it, answering nothing: what a server does when its keep-alive
 * time-out ends just as the gateway reuses the idle connection (Node.js
 * servers close them after 5 s, and Node's client cannot always see it
 * coming). Each request it answers, it answers on a connection of its own.
 */
async function startClosingUpstream(): Promise<{
  url: string;
  /** Request lines answered, and those met by a closed connection. */
  answered: string[];
  cut: string[];
  close(): Promise<void>;
}> {
  const answered: string[] = [];
  const cut: string[] = [];
  const served = new WeakSet<Socket>();
  const server: Server = createServer((request, response) => {
    const line = `${request.method ?? ''} ${request.url ?? ''}`;
    if (served.has(request.socket)) {
      cut.push(line);
      request.socket.destroy();
      return;
    }
    served.add(request.socket);
    request.resume();
    request.on('end', () => {
      answered.push(line);
      response.setHeader('content-type', 'text/plain');
      // A burst is held a moment, so that its requests each open a connection.
      const holdMs = request.url?.startsWith('/burst') === true ? 50 : 0;
      setTimeout(() => response.end(`answered ${line}`), holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    answered,
    cut,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

describe('reverse proxy: a pooled connection the application has just closed', () => {
  let upstream: Awaited<ReturnType<typeof startClosingUpstream>>;
  let gw: TestGateway;
  let cookie: string;

  before(async () => {
    upstream = await startClosingUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: { SSOGATE_UPSTREAM: upstream.url },
    });
    cookie = await signedInCookie(gw.gateway, 'carol');
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  /** One request through the gateway, after a pause that lets the last connection go back to the pool. */
  async function through(method: string, path: string, body?: string) {
    await delay(20);
    const response = await fetch(`${gw.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'text/plain' }) },
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, text: await response.text() };
  }

  test('an idempotent request without a body is sent again on a new connection, and answered', async () => {
    for (let i = 0; i < 5; i += 1) {
      const { status, text } = await through('GET', `/page-${i}`);
      assert.equal(status, 200, text);
      assert.equal(text, `answered GET /page-${i}`);
    }
    const { status } = await through('DELETE', '/item');
    assert.equal(status, 200);
    // Every other request reused a pooled connection and met it closed (the
    // retry's own connection is not pooled), so the retry did the work.
    assert.ok(upstream.cut.length >= 3, `cut: ${upstream.cut.join(', ')}`);
  });

  /** Leaves one live connection in the pool, for the next request to meet closed. */
  async function poolOneConnection(): Promise<void> {
    const cutBefore = upstream.cut.length;
    await through('GET', '/warm');
    // Met closed and sent again on a connection that is not pooled: once more.
    if (upstream.cut.length > cutBefore) await through('GET', '/warm');
  }

  test('the retry goes out on a new connection, never on another pooled one the application closed too', async () => {
    // Three connections at once, then idle in the pool: the application
    // closes each the moment it is used again, as it would all of them once
    // its keep-alive time-out has passed.
    const burst = await Promise.all([0, 1, 2].map((i) => through('GET', `/burst-${i}`)));
    assert.deepEqual(
      burst.map(({ status }) => status),
      [200, 200, 200],
    );
    const cutBefore = upstream.cut.length;
    const { status, text } = await through('GET', '/after-burst');
    assert.equal(status, 200, text);
    assert.equal(text, 'answered GET /after-burst');
    // Met closed once; sent again on a connection of its own, not on the next stale one.
    assert.deepEqual(upstream.cut.slice(cutBefore), ['GET /after-burst']);
    // The other idle connections were dropped with it: the next request finds a live one.
    const next = await through('GET', '/after-drop');
    assert.equal(next.status, 200, next.text);
    assert.deepEqual(upstream.cut.slice(cutBefore), ['GET /after-burst']);
  });

  test('a request with a body, or not idempotent, is never sent twice: 502 upstream_unavailable', async () => {
    await poolOneConnection();
    const cutBefore = upstream.cut.length;
    const { status, text } = await through('POST', '/form', 'name=carol');
    assert.equal(status, 502, text);
    assert.match(text, /upstream_unavailable/);
    assert.deepEqual(upstream.cut.slice(cutBefore), ['POST /form']);
    assert.ok(!upstream.answered.includes('POST /form'));

    await poolOneConnection();
    const put = await through('PUT', '/item', 'new value');
    assert.equal(put.status, 502, put.text);
    assert.ok(!upstream.answered.includes('PUT /item'));
  });
});

describe('reverse proxy: idle pooled connections', () => {
  test('are closed by the gateway after a few idle seconds, before a 5 s keep-alive application would', async () => {
    // The application keeps idle connections far longer than the gateway
    // does, so the close it sees comes from the gateway.
    let connection: Socket | undefined;
    const server = createServer((_request, response) => {
      response.end('ok');
    });
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket: Socket) => {
      connection = socket;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: { SSOGATE_UPSTREAM: `http://127.0.0.1:${address.port}` },
    });
    try {
      const cookie = await signedInCookie(gw.gateway, 'carol');
      const response = await fetch(`${gw.url}/page`, { headers: { cookie } });
      assert.equal(response.status, 200);
      await response.text();
      assert.ok(connection !== undefined && !connection.readableEnded);
      const closedByGateway = once(connection, 'end').then(() => 'closed');
      // Well past the gateway's idle time, well short of the application's.
      const gaveUp = delay(10_000).then(() => 'still open');
      assert.equal(await Promise.race([closedByGateway, gaveUp]), 'closed');
    } finally {
      await gw.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    }
  });
});
