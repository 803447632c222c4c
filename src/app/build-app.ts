import { handoffRoutes } from '../features/sign-in/handoff-routes.js';
import { createServer } from 'node:http';
import formBody from '@fastify/formbody';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, RouteOptions } from 'fastify';
import { SsogateError } from '../core/index.js';
import { adminApiRoutes } from '../features/admin-api/routes.js';
import { openIdProviderRoutes, providerAdminRoutes } from '../features/openid-provider/routes.js';
import { adminConsoleRoutes } from '../features/admin-console/routes.js';
import { withForwardAuthFastPath } from '../features/forward-auth/fast-path.js';
import { forwardAuthRoutes } from '../features/forward-auth/routes.js';
import { localSignInRoutes } from '../features/local-accounts/routes.js';
import { secondFactorAdminRoutes } from '../features/second-factor/admin/factor-reset-routes.js';
import { secondFactorRoutes } from '../features/second-factor/routes.js';
import { logDestination, loggerOptions } from '../foundation/logging/logger.js';
import { OneLinePerRequest } from '../foundation/logging/request-log.js';
import { RoutineLines } from '../foundation/logging/routine-lines.js';
import { portalRoutes } from '../features/portal/routes.js';
import { withProxyFastPath } from '../features/reverse-proxy/fast-path.js';
import { internalResourceRoutes } from '../features/reverse-proxy/routes.js';
import { sessionRoutes } from '../features/sessions/routes.js';
import { backchannelLogoutRoutes } from '../features/sessions/backchannel-logout.js';
import { frontchannelLogoutRoutes } from '../features/sessions/frontchannel-logout.js';
import { signInRoutes } from '../features/sign-in/routes.js';
import { trialSignInCallback } from '../features/trial-sign-in/trial-callback.js';
import { trialSignInAdminRoutes } from '../features/trial-sign-in/routes.js';
import { samlRoutes } from '../features/saml/routes.js';
import { securityHeaders } from '../foundation/web/index.js';
import { serverLimits, withBodyDeadline } from '../foundation/http/connection-limits.js';
import { dropUnusableForwardedFor } from '../foundation/http/forwarded-for.js';
import { clientError, readEmptyJsonAsNoBody } from '../foundation/http/request-bodies.js';
import type { AppGateway } from './create-gateway.js';
import { startExpirySweep } from './expiry-sweep.js';
import { endGrantsOfOverSignIns } from '../features/openid-provider/sign-in-grants.js';
import { serveTelemetry } from './gateway-telemetry.js';
import { sendFailure } from '../foundation/http/respond.js';
import { FastAnswers } from '../foundation/http/fast-answer.js';
import { lazySchemaCompilers } from '../foundation/http/lazy-schema-compilers.js';
import { keepDirectoryPools } from '../features/ldap-directory/directory-pool.js';

export interface AppOptions {
  /** A logger to use instead of the configured one (tests capture lines). */
  readonly logger?: FastifyBaseLogger;
  /** The built admin console's folder (default `dist/console/`). */
  readonly consoleDir?: string;
  /** Told of every route as it is registered (the OpenAPI coverage test). */
  readonly onRoute?: (route: RouteOptions) => void;
  /**
   * One worker of several (worker-pool.ts): `sweeps` for the one that runs
   * the expiry sweep and audit pruning; the metrics' own listener is the
   * primary's.
   */
  readonly worker?: { readonly sweeps: boolean };
}

/**
 * The gateway's HTTP application, separate from listen():
 * tests drive it on port 0 or with inject(); main.ts listens.
 */
export async function buildApp(
  gateway: AppGateway,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  // One sequence of request ids for the routes and the fast paths' lines.
  const requestId = requestIds();
  // One count of routine requests for the routes and the fast paths.
  const routineLines = new RoutineLines(gateway.config.requestLog);
  const fastAnswers = new FastAnswers(gateway, () => app.log, requestId, routineLines);
  const app: FastifyInstance = Fastify({
    ...(options.logger === undefined
      ? { logger: { ...loggerOptions(gateway.config.logLevel), stream: logDestination() } }
      : { loggerInstance: options.logger }),
    bodyLimit: 1024 * 1024,
    // Identity comes from the configured public URL, never from client headers;
    // only the client's address may come from X-Forwarded-For, and only when
    // the proxy that sent it is configured as trusted (SSOGATE_TRUSTED_PROXIES).
    trustProxy:
      gateway.config.trustedProxies.length > 0 ? [...gateway.config.trustedProxies] : false,
    requestIdHeader: false,
    genReqId: requestId,
    logController: new OneLinePerRequest(routineLines),
    // No route gives Fastify a schema: its compilers load only if one does.
    schemaController: { compilersFactory: lazySchemaCompilers() },
    // Forward-auth checks with a known answer skip the framework (fast-path.ts).
    // Time-outs on heads, bodies and idle connections: connection-limits.ts.
    serverFactory: (handler) => {
      const server = createServer(
        serverLimits(gateway),
        withForwardAuthFastPath(
          fastAnswers,
          // Proxied requests with a known answer too (reverse-proxy/fast-path.ts);
          // their bodies stream, so the body deadline is not theirs.
          withProxyFastPath(
            fastAnswers,
            withBodyDeadline(gateway, () => app.log, handler),
          ),
        ),
      );
      server.setTimeout(gateway.config.idleTimeoutMs);
      return server;
    },
  });
  if (options.onRoute !== undefined) app.addHook('onRoute', options.onRoute);
  if (gateway.config.trustedProxies.length > 0) {
    app.addHook('onRequest', (request, _reply, done) => {
      dropUnusableForwardedFor(request);
      done();
    });
  }
  await app.register(formBody, { bodyLimit: 64 * 1024 });
  readEmptyJsonAsNoBody(app);

  const headers = securityHeaders({ https: gateway.config.secureCookies });
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(headers)) {
      if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    // Fastify's own 4xx (a malformed body, a wrong content type) are the
    // client's; anything else is unexpected and gets a reference id.
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    const failure =
      error instanceof SsogateError
        ? error
        : status >= 400 && status < 500
          ? clientError(error as Error)
          : error;
    sendFailure(gateway, request, reply, failure);
  });

  // Each feature's routes are one encapsulated plugin, loaded here in this
  // order (foundation/http/feature-scope.ts): its hooks and limits apply to
  // its own routes only.
  await signInRoutes(app, gateway, trialSignInCallback(gateway));
  await handoffRoutes(app, gateway);
  await samlRoutes(app, gateway);
  await localSignInRoutes(app, gateway);
  await secondFactorRoutes(app, gateway);
  await sessionRoutes(app, gateway);
  await backchannelLogoutRoutes(app, gateway);
  await frontchannelLogoutRoutes(app, gateway);
  await adminApiRoutes(app, gateway, [
    trialSignInAdminRoutes(gateway),
    providerAdminRoutes(gateway),
    secondFactorAdminRoutes(gateway),
  ]);
  await openIdProviderRoutes(app, gateway);
  await adminConsoleRoutes(
    app,
    gateway,
    options.consoleDir === undefined ? {} : { dir: options.consoleDir },
  );
  await forwardAuthRoutes(app, gateway);
  await portalRoutes(app, gateway);
  await serveTelemetry(app, gateway, options.worker !== undefined);
  await internalResourceRoutes(app, gateway);

  if (options.worker?.sweeps ?? true) {
    const sweep = startExpirySweep({
      storage: gateway.storage,
      clock: gateway.clock,
      idleMs: gateway.config.sessionIdleMs,
      log: app.log,
      auditRetention: gateway.config.auditRetention,
      endOverGrants: () => endGrantsOfOverSignIns(gateway),
    });
    app.addHook('onClose', () => sweep.stop());
  }
  // Proxied WebSockets close with the gateway, and their checks stop.
  app.addHook('onClose', (_instance, closed) => {
    gateway.upgradedConnections.close();
    closed();
  });
  // After the requests under way have finished (onClose runs once the server is closed).
  app.addHook('onClose', async () => {
    await gateway.closeOutbound?.();
    // The upstream agents' pooled connections, the LDAP entries' pools, the parsed cookies and URLs.
    gateway.memory.release();
  });
  // A failed fetch of an identity provider's metadata: with an earlier copy
  // kept in use the sign-ins go on, so the log is where it shows.
  gateway.documents.onFetched((event) => {
    if (event.error === undefined) return;
    app.log.warn(
      { url: event.url, code: event.error.code, keptCopy: event.keptCopy },
      event.keptCopy
        ? `refreshing metadata failed; the earlier copy stays in use: ${event.error.message}`
        : `fetching metadata failed: ${event.error.message}`,
    );
  });
  // A removed or changed entry's directory connections close when the entries are next read.
  gateway.entries.onLoaded((entries) => {
    keepDirectoryPools(gateway.memory.directoryPools, entries);
  });
  // A stored entry the engine no longer compiles is left out of sign-in: said at every load.
  gateway.entries.onBrokenEntry((entryId, problem) => {
    app.log.error({ entryId, problem }, 'a stored entry no longer compiles; it signs no one in');
  });
  return app;
}

/** Request ids as the framework makes them by default: req-1, req-2… in base 36, per app. */
function requestIds(): () => string {
  let last = 0;
  return () => {
    // Kept a small integer, as the framework's own sequence is.
    last = (last + 1) & 0x7fffffff;
    return `req-${last.toString(36)}`;
  };
}
