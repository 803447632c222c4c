import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';

/** W3C Trace Context (https://www.w3.org/TR/trace-context/#traceparent-header), version 00. */
const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const invalidTraceId = '0'.repeat(32);
const invalidSpanId = '0'.repeat(16);

type SpanKindName = 'internal' | 'server' | 'client';
const kinds: Record<SpanKindName, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
};

/**
 * Spans over an OpenTelemetry tracer, with the current span carried by an
 * AsyncLocalStorage of this instance (not the API's global context manager,
 * so gateways in one process keep their traces apart). Only made when
 * tracing is configured: without it the gateway holds no Tracing at all and
 * its calls cost a comparison with undefined.
 */
export class Tracing {
  private readonly current = new AsyncLocalStorage<Context>();

  constructor(private readonly tracer: Tracer) {}

  /** The context spans started now would be children of. */
  active(): Context {
    return this.current.getStore() ?? ROOT_CONTEXT;
  }

  activeSpan(): Span | undefined {
    return trace.getSpan(this.active());
  }

  /** Runs `run` inside a new span, child of `parent` (default: the current span). */
  async inSpan<T>(
    name: string,
    options: { kind?: SpanKindName; attributes?: Attributes; parent?: Context },
    run: (span: Span) => Promise<T>,
  ): Promise<T> {
    const parent = options.parent ?? this.active();
    const span = this.tracer.startSpan(
      name,
      {
        kind: kinds[options.kind ?? 'internal'],
        ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
      },
      parent,
    );
    try {
      return await this.current.run(trace.setSpan(parent, span), () => run(span));
    } catch (error) {
      markFailed(span, error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      span.end();
    }
  }

  /** A span already over (its start taken from performance.now()), recorded after the fact. */
  record(
    name: string,
    startedAt: number,
    options: { kind?: SpanKindName; attributes?: Attributes; parent?: Context; failed?: string },
  ): Span {
    const span = this.tracer.startSpan(
      name,
      {
        kind: kinds[options.kind ?? 'internal'],
        startTime: startedAt,
        ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
      },
      options.parent ?? this.active(),
    );
    if (options.failed !== undefined) markFailed(span, options.failed);
    span.end();
    return span;
  }

  // The helpers below, reached through the instance, so that a gateway
  // without tracing never loads @opentelemetry/api (telemetry.ts).
  readonly markFailed = markFailed;
  readonly traceparentOf = traceparentOf;
  readonly contextFromTraceparent = contextFromTraceparent;
  readonly signInParent = signInParent;

  /** A span to end later, child of `parent` (default: the current span). */
  start(name: string, kind: SpanKindName, attributes: Attributes, parent?: Context): Span {
    return this.tracer.startSpan(name, { kind: kinds[kind], attributes }, parent ?? this.active());
  }
}

function markFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The traceparent header naming `span` as the parent of the receiver's work. */
function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The remote parent a request's traceparent header names; ROOT_CONTEXT if none or malformed. */
function contextFromTraceparent(header: string | string[] | undefined): Context {
  if (typeof header !== 'string') return ROOT_CONTEXT;
  const match = traceparentPattern.exec(header.trim().toLowerCase());
  if (match === null) return ROOT_CONTEXT;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  if (traceId === invalidTraceId || spanId === invalidSpanId) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/**
 * The parent of every span of one sign-in. Its start and its callback are
 * two requests, possibly to two instances, with nothing in common but the
 * state (or, for an entry without one, the browser's binding cookie): both
 * ids are derived from that value, one-way, so both requests' spans land in
 * one trace under a parent no process records.
 */
function signInParent(traceKey: string): Context {
  const digest = createHash('sha256')
    .update('ssogate sign-in trace\u0000')
    .update(traceKey)
    .digest('hex');
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: digest.slice(0, 32),
    spanId: digest.slice(32, 48),
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}
