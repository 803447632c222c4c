import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import { apiVersion } from '../features/admin-api/openapi-route.js';
import type { Config } from '../foundation/config/load-config.js';
import type { Gateway } from '../foundation/http/gateway.js';
import { GatewayMetrics } from '../foundation/observability/gateway-metrics.js';
import {
  metricsPath,
  scrape,
  startMetricsServer,
} from '../foundation/observability/metrics-endpoint.js';
import { lendMetricsToPrimary } from '../foundation/observability/cluster-metrics.js';
import { Telemetry } from '../foundation/observability/telemetry.js';
import type { Storage } from '../foundation/storage/types.js';

/**
 * The gateway's telemetry: metrics are kept only when something can read
 * them (SSOGATE_METRICS_TOKEN or SSOGATE_METRICS_ADDRESS), so a gateway
 * without either pays nothing for them.
 */
export function gatewayTelemetry(config: Config, storage: Storage, clock: () => number): Telemetry {
  const exposed = config.metricsToken !== undefined || config.metricsAddress !== undefined;
  if (!exposed) return new Telemetry(undefined);
  return new Telemetry(
    new GatewayMetrics({
      version: apiVersion,
      upstreams: config.upstreams.map((upstream) => upstream.origin),
      countSessions: () => {
        const now = clock();
        return storage.sessions.countActive(now, now - config.sessionIdleMs);
      },
    }),
  );
}

/**
 * Serves the metrics and starts tracing, as configured: /_sso/metrics on the
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
  const { config, telemetry } = gateway;
  const { metrics } = telemetry;
  if (config.otlpEndpoint !== undefined)
    await telemetry.startTracing(config.otlpEndpoint, apiVersion);
  app.addHook('onClose', async () => telemetry.close());
  if (metrics === undefined) return;
  if (worker) {
    // Several workers need the metrics' own listener (load-config.ts).
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
