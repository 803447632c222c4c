import type { Metric } from 'prom-client';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { CounterChild, HistogramChild } from './metric-families.js';
import { CounterFamily, HistogramFamily } from './metric-families.js';

/** Calls to third-party servers take tens of milliseconds to seconds. */
const outboundBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A forward-auth answer from memory takes tens of microseconds. */
const forwardAuthBuckets = [
  0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];
/** Until the upstream's response head. */
const proxyBuckets = [0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What a forward-auth check answered, read from its status. */
export type ForwardAuthDecision =
  'allow' | 'unauthenticated' | 'denied' | 'redirect' | 'invalid' | 'error';

const forwardAuthDecisions: readonly ForwardAuthDecision[] = [
  'allow',
  'unauthenticated',
  'denied',
  'redirect',
  'invalid',
  'error',
];

export interface ProxyChildren {
  readonly byClass: readonly CounterChild[];
  readonly duration: HistogramChild;
}

/** Where a session count comes from, asked at most once per cache period. */
type CountSessions = () => Promise<number>;

export interface GatewayMetricsOptions {
  readonly version: string;
  /** Upstream origins, known at start: their children are bound once. */
  readonly upstreams: readonly string[];
  readonly countSessions?: CountSessions;
  /** How long a session count is reused (ms). */
  readonly sessionCountCacheMs?: number;
  readonly now?: () => number;
}

/**
 * Every metric the gateway exports (docs/metrics.md), in a registry of its
 * own so that several gateways in one process (tests) never share counts.
 * Labels are bounded: entry ids (the administrator's), error codes (the
 * registry's), decisions and steps (fixed lists), upstream origins (the
 * configuration's); never a user, a session or a request path.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly signInsStarted = new CounterFamily(
    'ssogate_signins_started_total',
    'Sign-ins started (a pending sign-in stored), by entry.',
    ['entry'],
  );
  readonly signIns = new CounterFamily(
    'ssogate_signins_total',
    'Sign-in callbacks completed, by entry and outcome (success or the error code).',
    ['entry', 'outcome'],
  );
  readonly outboundSteps = new HistogramFamily(
    'ssogate_outbound_step_duration_seconds',
    'Duration of each outbound step of a sign-in (token, userinfo, extension), by entry.',
    ['entry', 'step'],
    outboundBuckets,
  );
  readonly forwardAuth = new CounterFamily(
    'ssogate_forward_auth_requests_total',
    'Forward-auth checks, by decision.',
    ['decision'],
  );
  readonly forwardAuthDuration = new HistogramFamily(
    'ssogate_forward_auth_duration_seconds',
    'Time to answer a forward-auth check, by decision.',
    ['decision'],
    forwardAuthBuckets,
  );
  readonly proxied = new CounterFamily(
    'ssogate_proxy_requests_total',
    'Requests proxied to an upstream, by upstream origin and status class (or failed).',
    ['upstream', 'status_class'],
  );
  readonly proxyDuration = new HistogramFamily(
    'ssogate_proxy_duration_seconds',
    "Time until an upstream's response head (or the failure), by upstream origin.",
    ['upstream'],
    proxyBuckets,
  );
  readonly sessionCache = new CounterFamily(
    'ssogate_session_cache_lookups_total',
    "Session checks of forward-auth and the reverse proxy, by the gateway's cache's result (hit, miss).",
    ['result'],
  );
  readonly storageErrors = new CounterFamily(
    'ssogate_storage_errors_total',
    'Requests failed because the database or Redis could not be reached, by backend.',
    ['backend'],
  );
  readonly rateLimitRefusals = new CounterFamily(
    'ssogate_rate_limit_refusals_total',
    'Requests refused by a rate limit, by route.',
    ['route'],
  );

  readonly handoffs = new CounterFamily(
    'ssogate_handoffs_total',
    'Handoffs of a sign-in to another host, by step (start, finish) and outcome (success or the error code).',
    ['step', 'outcome'],
  );

  readonly secondFactors = new CounterFamily(
    'ssogate_second_factors_total',
    'Second factors, by action (enrol, verify, remove, reset) and outcome (success or the error code).',
    ['action', 'outcome'],
  );

  readonly backchannelLogouts = new CounterFamily(
    'ssogate_backchannel_logouts_total',
    'Logout tokens posted to OpenID clients, by attempt outcome (success or the error code).',
    ['outcome'],
  );

  readonly metadataFetches = new CounterFamily(
    'ssogate_metadata_fetches_total',
    "Fetches of an identity provider's metadata from its URL, by outcome (success or the error code).",
    ['outcome'],
  );

  /** Bound once: the forward-auth children, by decision. */
  readonly forwardAuthChildren: Readonly<
    Record<ForwardAuthDecision, { count: CounterChild; duration: HistogramChild }>
  >;
  readonly sessionCacheHit: CounterChild;
  readonly sessionCacheMiss: CounterChild;
  private readonly proxyChildren = new Map<string, ProxyChildren>();

  constructor(options: GatewayMetricsOptions) {
    const children = {} as Record<
      ForwardAuthDecision,
      { count: CounterChild; duration: HistogramChild }
    >;
    for (const decision of forwardAuthDecisions) {
      children[decision] = {
        count: this.forwardAuth.child(decision),
        duration: this.forwardAuthDuration.child(decision),
      };
    }
    this.forwardAuthChildren = children;
    this.sessionCacheHit = this.sessionCache.child('hit');
    this.sessionCacheMiss = this.sessionCache.child('miss');
    for (const origin of options.upstreams) this.proxyChildrenOf(origin);

    for (const family of [
      this.signInsStarted,
      this.signIns,
      this.outboundSteps,
      this.forwardAuth,
      this.forwardAuthDuration,
      this.proxied,
      this.proxyDuration,
      this.sessionCache,
      this.storageErrors,
      this.rateLimitRefusals,
      this.handoffs,
      this.secondFactors,
      this.backchannelLogouts,
      this.metadataFetches,
    ]) {
      this.registry.registerMetric(family as unknown as Metric);
    }
    new Gauge({
      name: 'ssogate_build_info',
      help: 'Always 1; the labels say which ssogate and Node.js run.',
      labelNames: ['version', 'node'],
      registers: [this.registry],
      // Several workers run one build: added up, it would say 2 (cluster-metrics.ts).
      aggregator: 'first',
    }).set({ version: options.version, node: process.versions.node }, 1);
    if (options.countSessions !== undefined) {
      this.registerActiveSessions(
        options.countSessions,
        options.sessionCountCacheMs ?? 15_000,
        options.now ?? Date.now,
      );
    }
    collectDefaultMetrics({ register: this.registry });
  }

  /** The children of an upstream origin: bound at start for the configured ones. */
  proxyChildrenOf(origin: string): ProxyChildren {
    let found = this.proxyChildren.get(origin);
    if (found === undefined) {
      found = {
        // 1xx to 5xx, then a request that got no response at all.
        byClass: ['1xx', '2xx', '3xx', '4xx', '5xx', 'failed'].map((statusClass) =>
          this.proxied.child(origin, statusClass),
        ),
        duration: this.proxyDuration.child(origin),
      };
      this.proxyChildren.set(origin, found);
    }
    return found;
  }

  /** The text format for a scrape. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Active sessions are counted by storage at scrape time, not tracked per
   * request; a count younger than the cache period is reused, so frequent
   * scrapes (or several Prometheus servers) cost one query per period.
   */
  private registerActiveSessions(count: CountSessions, cacheMs: number, now: () => number): void {
    let last: { value: number; at: number } | undefined;
    new Gauge({
      name: 'ssogate_active_sessions',
      help: 'Sessions not yet expired, counted by storage (cached for a few seconds).',
      registers: [this.registry],
      // Every worker counts the same storage: the newest count, not their sum.
      aggregator: 'max',
      async collect() {
        const at = now();
        if (last === undefined || at - last.at >= cacheMs) {
          // A storage that cannot be reached leaves the last count (or none), not a failed scrape.
          last = { value: await count().catch(() => last?.value ?? Number.NaN), at };
        }
        this.set(last.value);
      },
    });
  }
}
