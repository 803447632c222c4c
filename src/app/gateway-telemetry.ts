import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import { apiVersion } from '../features/admin-api/openapi-route.js';
import type { Gateway } from '../foundation/http/gateway.js';
import {
  metricsPath,
  scrape,
  startMetricsServer,
} from '../foundation/observability/metrics-endpoint.js';

/**
 * Keeps metrics, serves them and starts tracing, as configured. Metrics are
 * kept only when something can read them (SSOGATE_METRICS_TOKEN or
 * SSOGATE_METRICS_ADDRESS), so a gateway without either pays nothing for
 * them, not even the memory of prom-client's code: /_sso/metrics on the
 * gateway's own listener behind the token, or a listener of their own (the
 * token asked there too, if set); with neither, no route at all (404).
 * Spans are flushed when the app closes. A worker of several lends its
 * metrics to the primary, whose listener adds up every worker's.
 */
export async function serveTelemetry(
  app: FastifyInstance,
  gateway: Gateway,
  worker: boolean,
): Promise<void> {
  const { config, telemetry, storage, clock } = gateway;
  if (config.otlpEndpoint !== undefined)
    await telemetry.startTracing(config.otlpEndpoint, apiVersion);
  app.addHook('onClose', async () => telemetry.close());
  const exposed = config.metricsToken !== undefined || config.metricsAddress !== undefined;
  if (!exposed) return;
  const metrics = await telemetry.startMetrics({
    version: apiVersion,
    upstreams: config.upstreams.map((upstream) => upstream.origin),
    countSessions: () => {
      const now = clock();
      return storage.sessions.countActive(now, now - config.sessionIdleMs);
    },
  });
  if (worker) {
    // Several workers need the metrics' own listener (load-config.ts).
    const { lendMetricsToPrimary } = await import('../foundation/observability/cluster-metrics.js');
    lendMetricsToPrimary(metrics);
    return;
  }
  if (config.metricsAddress === undefined) {
    const token = config.metricsToken;
    app.get(metricsPath, async (request, reply) => {
      const answer = await scrape(metrics, token, request.headers.authorization);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
    return;
  }
  const server: Server = await startMetricsServer(
    metrics,
    config.metricsAddress,
    config.metricsToken,
  );
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  });
}
