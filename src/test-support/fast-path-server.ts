import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withForwardAuthFastPath } from '../features/forward-auth/fast-path.js';
import { RoutineLines } from '../foundation/logging/routine-lines.js';
import { FastAnswers } from '../foundation/http/fast-answer.js';
import { withProxyFastPath } from '../features/reverse-proxy/fast-path.js';
import type { TestGateway } from './gateway-fixture.js';

export interface FastPathServer {
  readonly url: string;
  /** How many requests the fast paths have left to the routes so far. */
  deferred(): number;
  close(): Promise<void>;
}

/**
 * A test gateway's fast paths (src/features/forward-auth/fast-path.ts,
 * src/features/reverse-proxy/fast-path.ts) on a loopback port of their own, in front
 * of the app's router, counting the requests they leave to it: what tells a
 * fast answer from a route's, now that both write the same request line.
 */
export async function startFastPathServer(gw: TestGateway): Promise<FastPathServer> {
  const { app, gateway } = gw;
  let deferred = 0;
  let id = 0;
  const answers = new FastAnswers(
    gateway,
    () => app.log,
    () => `fast-${(id += 1)}`,
    new RoutineLines(gateway.config.requestLog),
  );
  const server: Server = createServer(
    withForwardAuthFastPath(
      answers,
      withProxyFastPath(answers, (request, response) => {
        deferred += 1;
        app.routing(request, response);
      }),
    ),
  );
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deferred: () => deferred,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
