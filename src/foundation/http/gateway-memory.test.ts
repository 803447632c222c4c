import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { signedInCookie } from '../../features/reverse-proxy/test-support/upstream-fixture.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * What a gateway remembers between requests (gateway-memory.ts) is its own:
 * two gateways in one process share none of it, and closing one closes its
 * upstream connections and forgets the rest.
 */
describe('gateway memory', () => {
  let upstream: Server;
  /** The upstream's connections from the gateways, open or closed. */
  const connections: Socket[] = [];
  let first: TestGateway;
  let second: TestGateway;

  before(async () => {
    upstream = createServer((_request, response) => {
      response.end('hello');
    });
    // Longer than the test: only the gateway may close its pooled connections.
    upstream.keepAliveTimeout = 600_000;
    upstream.on('connection', (socket: Socket) => connections.push(socket));
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const env = { SSOGATE_UPSTREAM: JSON.stringify({ '/app': origin }) };
    first = await startTestGateway({ env });
    second = await startTestGateway({ env });
  });
  after(async () => {
    await second.close();
    upstream.close();
  });

  test('a gateway remembers for itself, and its close closes its upstream connections', async () => {
    const cookie = await signedInCookie(first.gateway, 'dana', { email: 'x, y@example.test' });
    for (let round = 0; round < 2; round += 1) {
      const checked = await fetch(`${first.url}/_sso/auth`, { headers: { cookie } });
      assert.equal(checked.status, 204);
      const proxied = await fetch(`${first.url}/app/page`, { headers: { cookie } });
      assert.equal(await proxied.text(), 'hello');
    }
    const mine = first.gateway.memory;
    const theirs = second.gateway.memory;
    assert.notEqual(mine, theirs);
    assert.ok(mine.cookieHeaders.has(cookie));
    assert.ok(mine.configuredUrls.size > 0);
    assert.equal(mine.upstreamAgents.size, 1);
    const sessionId = cookie.split('=')[1];
    const remembered = first.gateway.sessionCache.remembered(sessionId);
    if (remembered !== undefined) {
      assert.ok(mine.identityHeaders.has(remembered.user));
      assert.equal(theirs.identityHeaders.has(remembered.user), false);
    }
    assert.equal(theirs.cookieHeaders.size, 0);
    assert.equal(theirs.configuredUrls.size, 0);
    assert.equal(theirs.upstreamAgents.size, 0);
    // The one-entry memories of the last host the rules read and the last
    // Connection header: this gateway's, not a module's.
    assert.equal(mine.lastHost.text, new URL(first.url).host);
    assert.notEqual(mine.lastConnection.header, '');
    assert.equal(theirs.lastHost.text, '');
    assert.equal(theirs.lastConnection.header, '');

    // The pooled connection stays open while the gateway runs...
    const open = connections.filter((socket) => !socket.destroyed);
    assert.equal(open.length, 1);
    const closed = Promise.all(open.map((socket) => once(socket, 'close')));
    await first.close();
    // ...and closes with it, the upstream's own time-out being far off.
    await stillWithin(closed, 10_000, 'the pooled upstream connection was left open');
    assert.equal(mine.upstreamAgents.size, 0);
    assert.equal(mine.cookieHeaders.size, 0);
    assert.equal(mine.configuredUrls.size, 0);
    assert.equal(mine.lastHost.text, '');
    assert.equal(mine.lastConnection.header, '');
  });
});

/** The promise's outcome, or a failure once `ms` have passed without one. */
async function stillWithin<T>(promise: Promise<T>, ms: number, failure: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(failure));
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
