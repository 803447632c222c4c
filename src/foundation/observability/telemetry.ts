import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Span } from '@opentelemetry/api';
// Types only: prom-client and @opentelemetry/api are loaded when metrics
// or traces are started, never by a gateway with neither.
import type {
  ForwardAuthDecision,
  GatewayMetrics,
  GatewayMetricsOptions,
  ProxyChildren,
} from './gateway-metrics.js';
import type { Tracing } from './tracing.js';

/** The outbound steps of a sign-in that are timed. */
type OutboundStep = 'app_token' | 'token' | 'userinfo' | 'extension';

/** The entry label of a sign-in whose entry is not known (an unknown id is not a label value). */
const noEntry = '(none)';

/** What a failure's log line gets to find its trace. */
interface FailureTrace {
  readonly traceId?: string;
}

/** A proxied request being observed: from the call to the response head. */
interface ProxyObservation {
  readonly startedAt: number;
  readonly children: ProxyChildren | undefined;
  readonly span: Span | undefined;
}

/** An outbound call as the outbound client takes it: only the headers are touched. */
interface HasHeaders {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

function forwardAuthDecision(status: number): ForwardAuthDecision {
  if (status === 204 || status === 200) return 'allow';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'denied';
  if (status >= 300 && status < 400) return 'redirect';
  return status < 500 ? 'invalid' : 'error';
}

const emptyTrace: FailureTrace = {};
const unobserved: ProxyObservation = { startedAt: 0, children: undefined, span: undefined };

/**
 * The gateway's metrics and traces, behind one-line calls from the
 * features: each call does nothing more than a comparison when its half is
 * off (no metrics exposed, no OTLP endpoint). Made by the composition root
 * (src/app/create-gateway.ts) and held by the Gateway.
 */
export class Telemetry {
  private tracingValue: Tracing | undefined = undefined;
  private shutdownTracing: () => Promise<void> = async () => {};

  constructor(private metricsValue: GatewayMetrics | undefined) {}

  get metrics(): GatewayMetrics | undefined {
    return this.metricsValue;
  }

  /** Starts keeping metrics; prom-client is loaded now, not before. */
  async startMetrics(options: GatewayMetricsOptions): Promise<GatewayMetrics> {
    const { GatewayMetrics } = await import('./gateway-metrics.js');
    const metrics = new GatewayMetrics(options);
    this.metricsValue = metrics;
    return metrics;
  }

  get tracing(): Tracing | undefined {
    return this.tracingValue;
  }

  /** Starts exporting spans to an OTLP/HTTP endpoint; the SDK is loaded now, not before. */
  async startTracing(endpoint: string, version: string): Promise<void> {
    const { startTracing } = await import('./start-tracing.js');
    const started = await startTracing(endpoint, version);
    this.tracingValue = started.tracing;
    this.shutdownTracing = started.shutdown;
  }

  /** A monotonic time in ms, for durations (and span start times); 0 when both halves are off. */
  now(): number {
    return this.off ? 0 : performance.now();
  }

  /** Neither metrics nor traces: the hot paths' calls return at once. */
  private get off(): boolean {
    return this.metrics === undefined && this.tracingValue === undefined;
  }

  // ------------------------------------------------------------- sign-in

  /** A pending sign-in was stored at the start of a sign-in begun at `startedAt`. */
  signInStarted(entryId: string, traceKey: string, startedAt: number): void {
    this.metrics?.signInsStarted.child(entryId).inc();
    const { tracing } = this;
    tracing?.record('sign_in.start', startedAt, {
      kind: 'server',
      attributes: { 'ssogate.entry': entryId },
      parent: tracing.signInParent(traceKey),
    });
  }

  /** Runs a callback's work as the `sign_in.callback` span of its sign-in's trace. */
  async signInCallback<T>(traceKey: string, entryId: string, run: () => Promise<T>): Promise<T> {
    if (this.tracing === undefined) return run();
    return this.tracing.inSpan(
      'sign_in.callback',
      {
        kind: 'server',
        attributes: { 'ssogate.entry': entryId },
        parent: this.tracing.signInParent(traceKey),
      },
      run,
    );
  }

  /** A callback ended: `success`, or the error code it failed with. */
  signInFinished(entryId: string | null | undefined, outcome: string): void {
    this.metrics?.signIns.child(entryId ?? noEntry, outcome).inc();
  }

  /** A second factor enrolled, given, removed or reset: `success`, or the error code. */
  secondFactor(action: 'enrol' | 'verify' | 'remove' | 'reset', outcome: string): void {
    this.metrics?.secondFactors.child(action, outcome).inc();
  }

  /** A step of a handoff to another host (start, finish) ended: `success`, or the error code. */
  handoff(step: 'start' | 'finish', outcome: string): void {
    this.metrics?.handoffs.child(step, outcome).inc();
  }

  /** An attempt to post a logout token to an OpenID client ended: `success`, or the error code. */
  backchannelLogout(outcome: string): void {
    this.metrics?.backchannelLogouts.child(outcome).inc();
  }

  /** A fetch of an identity provider's metadata from its URL ended: `success`, or the error code. */
  metadataFetch(outcome: string): void {
    this.metrics?.metadataFetches.child(outcome).inc();
  }

  /** Times one outbound step of a sign-in, in a span of its own; with neither, only runs it. */
  step<T>(entryId: string, step: OutboundStep, run: () => Promise<T>): Promise<T> {
    return this.off ? run() : this.timedStep(entryId, step, run);
  }

  private async timedStep<T>(
    entryId: string,
    step: OutboundStep,
    run: () => Promise<T>,
  ): Promise<T> {
    const startedAt = performance.now();
    try {
      return this.tracing === undefined
        ? await run()
        : await this.tracing.inSpan(`sign_in.${step}`, {}, run);
    } finally {
      this.metrics?.outboundSteps
        .child(entryId, step)
        .observe((performance.now() - startedAt) / 1000);
    }
  }

  /** A part of a request worth its own span (provisioning). */
  span<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.tracing === undefined ? run() : this.tracing.inSpan(name, {}, run);
  }

  /**
   * The outbound client with a client span per call and the W3C
   * `traceparent` header naming it, so a provider that traces joins the
   * sign-in's trace. Without tracing, the client itself.
   */
  tracedSend<R extends HasHeaders, A>(
    send: (request: R) => Promise<A>,
  ): (request: R) => Promise<A> {
    return (request) => {
      const { tracing } = this;
      if (tracing === undefined) return send(request);
      const url = new URL(request.url);
      return tracing.inSpan(
        `${request.method} ${url.host}`,
        {
          kind: 'client',
          attributes: {
            'http.request.method': request.method,
            'server.address': url.hostname,
            'url.path': url.pathname,
          },
        },
        (span) =>
          send({
            ...request,
            headers: { ...request.headers, traceparent: tracing.traceparentOf(span) },
          }),
      );
    };
  }

  // ------------------------------------------------------------ failures

  /**
   * Every coded failure the gateway answers passes here (src/foundation/http/respond.ts):
   * rate-limit refusals and unreachable backends are counted, and the
   * current span gets the reference id, whose log line gets the trace id.
   */
  failure(code: string, reference: string, route: string, error: unknown): FailureTrace {
    const { metrics } = this;
    if (metrics !== undefined) {
      if (code === 'rate_limited') metrics.rateLimitRefusals.child(route).inc();
      else if (code === 'service_unavailable') metrics.storageErrors.child(backendOf(error)).inc();
    }
    const span = this.tracing?.activeSpan();
    if (span === undefined) return emptyTrace;
    span.setAttribute('ssogate.reference', reference);
    span.setAttribute('ssogate.error_code', code);
    this.tracing?.markFailed(span, code);
    return { traceId: span.spanContext().traceId };
  }

  // -------------------------------------------------------- forward-auth

  /**
   * The fast path answered a check begun at `startedAt` (forward-auth/fast-path.ts),
   * with a remembered session (a session cache hit by definition) or with no session cookie.
   */
  forwardAuthFast(
    headers: IncomingHttpHeaders,
    startedAt: number,
    status: number,
    remembered: boolean,
  ): void {
    const { metrics } = this;
    if (metrics !== undefined && remembered) metrics.sessionCacheHit.value += 1;
    if (this.off) return;
    this.forwardAuthAnswered(status, headers, startedAt, (performance.now() - startedAt) / 1000);
  }

  /** The full route answered a check: Fastify's onResponse hook of the forward-auth routes. */
  readonly forwardAuthHook = (
    request: { readonly headers: IncomingHttpHeaders },
    reply: { readonly statusCode: number; readonly elapsedTime: number },
    done: () => void,
  ): void => {
    const seconds = reply.elapsedTime / 1000;
    this.forwardAuthAnswered(
      reply.statusCode,
      request.headers,
      performance.now() - reply.elapsedTime,
      seconds,
    );
    done();
  };

  private forwardAuthAnswered(
    status: number,
    headers: IncomingHttpHeaders,
    startedAt: number,
    seconds: number,
  ): void {
    const decision = forwardAuthDecision(status);
    const children = this.metrics?.forwardAuthChildren[decision];
    if (children !== undefined) {
      children.count.value += 1;
      children.duration.observe(seconds);
    }
    const { tracing } = this;
    tracing?.record('forward_auth', startedAt, {
      kind: 'server',
      attributes: { 'ssogate.decision': decision, 'http.response.status_code': status },
      parent: tracing.contextFromTraceparent(headers.traceparent),
    });
  }

  // ------------------------------------------------------- reverse proxy

  /**
   * A request is about to go to an upstream. With tracing, `headers` (the
   * flat list for the upstream) gets a `traceparent` naming the proxy's span,
   * a child of the client's own traceparent if it sent one.
   */
  proxyStarted(origin: string, headers: string[], incoming: IncomingHttpHeaders): ProxyObservation {
    if (this.off) return unobserved;
    const children = this.metrics?.proxyChildrenOf(origin);
    let span: Span | undefined;
    if (this.tracing !== undefined) {
      span = this.tracing.start(
        'proxy',
        'server',
        { 'ssogate.upstream': origin },
        this.tracing.contextFromTraceparent(incoming.traceparent),
      );
      replaceHeader(headers, 'traceparent', this.tracing.traceparentOf(span));
    }
    return { startedAt: performance.now(), children, span };
  }

  /** The upstream's response head came (`status`), or no response will (undefined). */
  proxyFinished(observation: ProxyObservation, status: number | undefined): void {
    const { children, span } = observation;
    if (children !== undefined) {
      // byClass: 1xx to 5xx, then `failed`.
      const index =
        status === undefined ? 5 : Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1;
      const counter = children.byClass[index];
      if (counter !== undefined) counter.value += 1;
      children.duration.observe((performance.now() - observation.startedAt) / 1000);
    }
    if (span !== undefined) {
      if (status === undefined) this.tracing?.markFailed(span, 'no response from the upstream');
      else span.setAttribute('http.response.status_code', status);
      span.end();
    }
  }

  // -------------------------------------------------------- session cache

  sessionCacheLookup(hit: boolean): void {
    const { metrics } = this;
    if (metrics !== undefined)
      (hit ? metrics.sessionCacheHit : metrics.sessionCacheMiss).value += 1;
  }

  /** Sends the spans still buffered and stops tracing. */
  async close(): Promise<void> {
    const shutdown = this.shutdownTracing;
    this.tracingValue = undefined;
    this.shutdownTracing = async () => {};
    await shutdown();
  }
}

/** Sets a header of a flat [name, value, ...] list, replacing any spelling of it. */
function replaceHeader(headers: string[], name: string, value: string): void {
  for (let index = 0; index + 1 < headers.length; index += 2) {
    if (headers[index]?.toLowerCase() === name) {
      headers.splice(index, 2);
      index -= 2;
    }
  }
  headers.push(name, value);
}

/** Marks of ioredis's errors in an error's cause chain; anything else is the database's. */
const redisMessages =
  /^(Connection is closed|Stream isn't writeable|Command timed out|Reached the max retries per request limit)/;

function backendOf(error: unknown): 'redis' | 'database' {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, message, cause } = current as {
      name?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (name === 'MaxRetriesPerRequestError' || name === 'ReplyError') return 'redis';
    if (typeof message === 'string' && redisMessages.test(message)) return 'redis';
    current = cause;
  }
  return 'database';
}
