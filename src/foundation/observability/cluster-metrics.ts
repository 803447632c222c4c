import type { Worker } from 'node:cluster';
import { AggregatorRegistry, prometheusContentType } from 'prom-client';
import type { GatewayMetrics } from './gateway-metrics.js';
import type { MetricsSource } from './metrics-endpoint.js';

/** How long a scrape waits for each worker's counts before it fails. */
const answerTimeoutMs = 5000;

interface MetricsRequest {
  readonly kind: 'ssogate:metrics?';
  readonly id: number;
}

interface MetricsAnswer {
  readonly kind: 'ssogate:metrics';
  readonly id: number;
  readonly metrics?: readonly object[];
  readonly error?: string;
}

function isRequest(message: unknown): message is MetricsRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { kind?: unknown }).kind === 'ssogate:metrics?'
  );
}

function isAnswerTo(message: unknown, id: number): message is MetricsAnswer {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { kind?: unknown }).kind === 'ssogate:metrics' &&
    (message as { id?: unknown }).id === id
  );
}

/**
 * In a worker of several (SSOGATE_WORKERS): answers the primary's requests
 * for this worker's metrics, over the cluster's channel, as prom-client's
 * JSON of them.
 */
export function lendMetricsToPrimary(metrics: GatewayMetrics): void {
  process.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const reply = (answer: MetricsAnswer) => process.send?.(answer);
    metrics.registry.getMetricsAsJSON().then(
      (json) => reply({ kind: 'ssogate:metrics', id: message.id, metrics: json }),
      (error: unknown) => reply({ kind: 'ssogate:metrics', id: message.id, error: String(error) }),
    );
  });
}

/**
 * In the primary: the metrics of every worker `listening` names, asked for
 * at each scrape and added up (counters and histograms summed, a gauge as
 * its `aggregator` says). Only workers that listen are asked, so a scrape
 * during a replacement's start reads the others; one that does not answer
 * fails the scrape rather than leave a hole in the sum. A worker that has
 * been replaced takes its counts with it: Prometheus reads the drop as a
 * counter reset.
 */
export function workersMetrics(listening: () => readonly Worker[]): MetricsSource {
  let lastId = 0;
  return {
    contentType: prometheusContentType,
    async text() {
      lastId += 1;
      const id = lastId;
      const answers = await Promise.all(listening().map((worker) => countsOf(worker, id)));
      return AggregatorRegistry.aggregate(answers).metrics();
    },
  };
}

function countsOf(worker: Worker, id: number): Promise<object[]> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    const fail = (reason: string) => {
      settle();
      reject(new Error(`worker pid ${String(worker.process.pid)} ${reason}`));
    };
    const timer = setTimeout(() => {
      fail(`did not send its metrics within ${answerTimeoutMs} ms`);
    }, answerTimeoutMs);
    const onMessage = (message: unknown) => {
      if (!isAnswerTo(message, id)) return;
      if (message.metrics === undefined)
        fail(`could not read its metrics: ${String(message.error)}`);
      else {
        settle();
        resolve([...message.metrics]);
      }
    };
    const onExit = () => {
      fail('exited before it sent its metrics');
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    const request: MetricsRequest = { kind: 'ssogate:metrics?', id };
    worker.send(request);
  });
}
