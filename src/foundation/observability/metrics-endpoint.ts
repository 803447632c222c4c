import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';

export const metricsPath = '/_sso/metrics';

/** What a scrape reads: one gateway's metrics, or every worker's added up (cluster-metrics.ts). */
export interface MetricsSource {
  readonly contentType: string;
  text(): Promise<string>;
}

/** An answer to a scrape: the status, its headers and body. */
interface ScrapeAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Whether an Authorization header carries the bearer token (RFC 6750 §2.1).
 * Both sides are hashed first, so the comparison takes the same time
 * whatever the length or the first differing byte of what was sent.
 */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  const sent = createHash('sha256')
    .update(match?.[1] ?? '')
    .digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(sent, expected) && match !== null;
}

/**
 * A scrape of the metrics: 401 without the token when one is configured
 * (with a WWW-Authenticate challenge, RFC 6750 §3), else the text format.
 */
export async function scrape(
  metrics: MetricsSource,
  token: string | undefined,
  authorization: string | undefined,
): Promise<ScrapeAnswer> {
  const noStore = { 'cache-control': 'no-store' };
  if (token !== undefined && !bearerMatches(authorization, token)) {
    return {
      status: 401,
      headers: {
        ...noStore,
        'content-type': 'application/json',
        'www-authenticate': 'Bearer realm="ssogate metrics"',
      },
      body: JSON.stringify({
        error: {
          code: 'unauthenticated',
          message: 'The metrics need the bearer token of SSOGATE_METRICS_TOKEN.',
        },
      }),
    };
  }
  return {
    status: 200,
    headers: { ...noStore, 'content-type': metrics.contentType },
    body: await metrics.text(),
  };
}

/**
 * The metrics on a listen address of their own (SSOGATE_METRICS_ADDRESS),
 * for a network only Prometheus reaches: GET /_sso/metrics (or /metrics),
 * nothing else.
 */
export async function startMetricsServer(
  metrics: MetricsSource,
  address: { readonly host: string; readonly port: number },
  token: string | undefined,
): Promise<Server> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || (path !== metricsPath && path !== '/metrics')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    scrape(metrics, token, request.headers.authorization).then(
      (answer) => response.writeHead(answer.status, answer.headers).end(answer.body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
