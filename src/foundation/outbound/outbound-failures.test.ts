import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SsogateError } from '../../core/index.js';
import { sendOutbound } from './send-outbound.js';
import { outbound, suiteServers } from './test-support/http-fixture.js';

const secretQuery = 'secret=CANARY_SECRET_7f3a9c&code=CODE_123';

/** Asserts the failure's code and that its message keeps the query to itself. */
function failsWith(code: string, method = 'GET') {
  return (error: unknown): boolean => {
    assert.ok(error instanceof SsogateError);
    assert.equal(error.code, code);
    assert.ok(error.cause !== undefined);
    assert.match(error.message, new RegExp(`^${method} to 127\\.0\\.0\\.1:\\d+`));
    assert.doesNotMatch(error.message, /CANARY|CODE_123|secret=|\?/);
    return true;
  };
}

describe('sendOutbound: failures', () => {
  const serve = suiteServers();

  test('a server that never answers ends in outbound_timeout at the deadline', async () => {
    const server = await serve(() => undefined);
    // The first call loads undici (send-outbound.ts) before its deadline
    // starts; loaded here first, the time measured is the deadline's alone.
    await import('undici');
    const started = performance.now();
    await assert.rejects(
      sendOutbound(outbound({ url: `${server.url}/token?${secretQuery}`, timeoutMs: 200 })),
      failsWith('outbound_timeout'),
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 190 && elapsed < 1000, `took ${elapsed} ms`);
  });

  test('the deadline covers the whole body, not each chunk', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('x'), 100);
      response.on('close', () => {
        clearInterval(timer);
      });
    });
    const started = performance.now();
    await assert.rejects(
      sendOutbound(
        outbound({ method: 'POST', url: `${server.url}/t?${secretQuery}`, timeoutMs: 350 }),
      ),
      failsWith('outbound_timeout', 'POST'),
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 340 && elapsed < 1200, `took ${elapsed} ms`);
  });

  test('a body over the cap ends in outbound_too_large', async () => {
    const server = await serve((_request, response) => {
      response.end(Buffer.alloc(2 * 1024 * 1024, 'a'));
    });
    await assert.rejects(
      sendOutbound(outbound({ url: `${server.url}/u?${secretQuery}` })),
      (error: unknown) => error instanceof SsogateError && error.code === 'outbound_too_large',
    );
  });

  test('a chunked body over the cap is cut off while it streams', async () => {
    let written = 0;
    const server = await serve((_request, response) => {
      // No content-length: the cap must be enforced while counting chunks.
      const write = (): void => {
        while (written < 64 * 1024 * 1024 && response.write(Buffer.alloc(64 * 1024, 'a'))) {
          written += 64 * 1024;
        }
        if (written < 64 * 1024 * 1024) response.once('drain', write);
      };
      write();
    });
    await assert.rejects(
      sendOutbound(outbound({ url: server.url, maxResponseBytes: 1024 * 1024 })),
      (error: unknown) => error instanceof SsogateError && error.code === 'outbound_too_large',
    );
    assert.ok(written < 32 * 1024 * 1024, `server wrote ${written} bytes`);
  });

  test('a refused connection ends in outbound_network', async () => {
    // Listen, note the port, close: nothing listens there afterwards.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await assert.rejects(
      sendOutbound(outbound({ url: `http://127.0.0.1:${port}/token?${secretQuery}` })),
      failsWith('outbound_network'),
    );
  });

  test('a connection reset before the headers ends in outbound_network', async () => {
    const server = await serve((request) => request.socket.destroy());
    await assert.rejects(
      sendOutbound(outbound({ url: `${server.url}/token?${secretQuery}` })),
      failsWith('outbound_network'),
    );
  });
});
