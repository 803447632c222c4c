import { after } from 'node:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OutboundRequest } from '../../../core/index.js';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface TestServer {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a free port; it records what arrives. */
export async function startTestServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { method = '', url = '', headers } = request;
      received.push({ method, url, headers, body: Buffer.concat(chunks).toString('utf8') });
      handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        // Servers that hang on purpose would otherwise keep close() waiting.
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * startTestServer for the tests of one suite (call it inside `describe`):
 * every server it starts is closed when the suite ends.
 */
export function suiteServers(): (
  ...args: Parameters<typeof startTestServer>
) => Promise<TestServer> {
  const servers: TestServer[] = [];
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  return async (...args) => {
    const server = await startTestServer(...args);
    servers.push(server);
    return server;
  };
}

export function outbound(overrides: Partial<OutboundRequest> & { url: string }): OutboundRequest {
  return {
    method: 'GET',
    headers: {},
    body: undefined,
    timeoutMs: 2000,
    maxResponseBytes: 1024 * 1024,
    ...overrides,
  };
}
