import { AggregatorRegistry } from 'prom-client';
import type { GatewayMetrics } from './gateway-metrics.js';
import type { MetricsSource } from './metrics-endpoint.js';

/**
 * In a worker of several (SSOGATE_WORKERS): answers the primary's requests
 * for this worker's metrics over the cluster's channel. prom-client's
 * aggregator adds the worker's listener when one is made, so one is.
 */
export function lendMetricsToPrimary(metrics: GatewayMetrics): void {
  AggregatorRegistry.setRegistries(metrics.registry);
  new AggregatorRegistry();
}

/**
 * In the primary: every connected worker's metrics, asked for at each
 * scrape and added up (counters and histograms summed, a gauge as its
 * `aggregator` says). A worker that has just been replaced takes its counts
 * with it: Prometheus reads the drop as a counter reset.
 */
export function workersMetrics(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return {
    contentType: aggregator.contentType,
    text: () => aggregator.clusterMetrics(),
  };
}
