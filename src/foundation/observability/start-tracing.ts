import { Tracing } from './tracing.js';

export interface TracingExport {
  readonly tracing: Tracing;
  /** Sends the spans still buffered, then stops exporting. */
  readonly shutdown: () => Promise<void>;
}

/**
 * Loads the OpenTelemetry SDK and its OTLP/HTTP exporter, only when an
 * endpoint is configured: a gateway without one never loads them. Spans go
 * to `<endpoint>/v1/traces` (the OTLP/HTTP path for traces), batched.
 */
export async function startTracing(endpoint: string, version: string): Promise<TracingExport> {
  const [
    { BasicTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'ssogate', 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return {
    tracing: new Tracing(provider.getTracer('ssogate', version)),
    shutdown: () => provider.shutdown(),
  };
}
