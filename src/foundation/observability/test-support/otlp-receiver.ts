import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '../../../test-support/wait-until.js';

/** A span as the OTLP/HTTP JSON encoding carries it (ids in hex). */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly status: { readonly code?: number; readonly message?: string };
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Paths and content types of the POSTs received. */
  readonly posts: { readonly path: string; readonly contentType: string }[];
  /**
   * Resolves once a received span satisfies `wanted`, and fails after
   * `timeoutMs` without one: an export already on the wire when the exporter
   * was shut down may land a moment after the shutdown resolved.
   */
  waitForSpan(wanted: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}

/**
 * An OTLP/HTTP receiver on a loopback port: it takes the exporter's JSON
 * POSTs to /v1/traces and keeps every span, flattened out of its resource
 * and scope. Anything else it answers 415 and keeps nothing.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const posts: { path: string; contentType: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      posts.push({ path: request.url ?? '', contentType });
      if (request.method !== 'POST' || !contentType.startsWith('application/json')) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
      };
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push(flatten(span));
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    posts,
    waitForSpan: async (wanted, timeoutMs = 10_000) => {
      await waitUntil(() => spans.some(wanted), {
        message: () => `a span among ${spans.map(({ name }) => name).join(', ')}`,
        timeoutMs,
        intervalMs: 50,
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

function flatten(span: Record<string, unknown>): ReceivedSpan {
  const attributes: Record<string, string | number | boolean> = {};
  for (const { key, value } of (span.attributes ?? []) as { key: string; value: AnyValue }[]) {
    attributes[key] =
      value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
  }
  const parent = span.parentSpanId as string | undefined;
  return {
    traceId: span.traceId as string,
    spanId: span.spanId as string,
    ...(parent === undefined || parent === '' ? {} : { parentSpanId: parent }),
    name: span.name as string,
    kind: span.kind as number,
    attributes,
    status: span.status ?? {},
  };
}
