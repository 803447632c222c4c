import type { Config } from '../foundation/config/load-config.js';
import type { RandomSource } from '../core/index.js';
import { pooledRandomBytes } from '../foundation/crypto/random-pool.js';
import { addressPolicy } from '../foundation/outbound/address-policy.js';
import { OutboundClient } from '../foundation/outbound/outbound-client.js';
import { EntryRegistry } from '../foundation/entries/entry-registry.js';
import type { SendOutbound } from '../foundation/outbound/outbound-policy.js';
import { withTransportPolicy } from '../foundation/outbound/outbound-policy.js';
import { ProviderMetadata } from '../foundation/oidc/provider-metadata.js';
import { FetchedDocuments } from '../foundation/outbound/fetched-documents.js';
import type { Gateway } from '../foundation/http/gateway.js';
import type { GatewayStorage } from './open-storage.js';
import { SessionCache } from '../foundation/http/session-cache.js';
import { UpgradedConnections, upgradeRecheckMs } from '../foundation/http/upgraded-connections.js';
import { gatewayMemory } from '../foundation/http/gateway-memory.js';
import { upgradeStillAllowed } from '../features/reverse-proxy/proxy-upgrade.js';
import { touchIntervalMs } from '../features/sessions/session-service.js';
import { clientRedirectOrigins } from '../features/openid-provider/redirect-origins.js';
import { revalidateBySource, sourceOf } from '../features/sign-in/sources/source-registry.js';
import { createSignInEnds } from '../foundation/storage/sign-in-ends.js';
import { Telemetry } from '../foundation/observability/telemetry.js';

/**
 * The gateway the app makes: its storage holds the stores of the features'
 * own tables too (open-storage.ts), which their routes read.
 */
export interface AppGateway extends Gateway {
  readonly storage: GatewayStorage;
}

export interface GatewayOptions {
  readonly clock?: () => number;
  readonly random?: RandomSource;
  readonly send?: SendOutbound;
  /** How often the sessions of open WebSockets are checked again; by default upgradeRecheckMs(). */
  readonly upgradeRecheckMs?: number;
}

/** Wires the gateway's parts; tests override the clock, randomness or client. */
export function createGateway(
  config: Config,
  storage: GatewayStorage,
  options: GatewayOptions = {},
): AppGateway {
  // Every ending of a sign-in, whatever the path, is one event
  // (foundation/storage/sign-in-ends.ts, docs/design.md#when-a-sign-in-ends):
  // the open WebSockets listen, below, and the OpenID Provider's grants, from
  // its routes (openid-provider/routes.ts).
  const signInEnds = createSignInEnds();
  const clock = options.clock ?? Date.now;
  const random = options.random ?? pooledRandomBytes();
  // Metrics and traces start with the app, as configured (gateway-telemetry.ts).
  const telemetry = new Telemetry(undefined);
  // A client of its own is the gateway's to close (at app close); a given one is the caller's.
  const policy = addressPolicy(config.outboundAllow);
  const outbound =
    options.send === undefined
      ? new OutboundClient({
          policy,
          maxConnectionsPerOrigin: config.outboundMaxConnections,
          ...(config.caCertificates === undefined
            ? {}
            : { extraCertificates: config.caCertificates }),
        })
      : undefined;
  // Outbound calls carry a traceparent when tracing is on (src/foundation/observability/).
  const send = telemetry.tracedSend(
    withTransportPolicy(
      options.send ?? (outbound as OutboundClient).send,
      config.allowInsecureHttp,
    ),
  );
  // Discovery and key sets go through the same client, address policy and caps as every call;
  // the endpoints a discovery document names are judged by the policy as it is read.
  const oidc = new ProviderMetadata(send, clock, policy);
  // SAML identity providers' metadata by URL: the same client, caps and policy.
  const documents = new FetchedDocuments(send, clock);
  documents.onFetched((event) => {
    telemetry.metadataFetch(event.outcome);
  });
  const entries = new EntryRegistry(
    storage.entries,
    storage.changes,
    storage.otherWritersVersion,
    oidc,
    clock,
  );
  const sessionCache = new SessionCache({
    revocations: storage.revocations,
    clock,
    idleMs: config.sessionIdleMs,
    touchIntervalMs: touchIntervalMs(config.sessionIdleMs),
  });
  // A session lasts no longer than its entry stays enabled (resolveSession):
  // any entry change announced, here or elsewhere, forgets the sessions of
  // every entry, whatever wrote it.
  storage.changes.subscribe('entries', () => {
    sessionCache.forgetEntrySessions();
  });
  const upgradedConnections = new UpgradedConnections({
    revocations: storage.revocations,
    recheckEveryMs:
      options.upgradeRecheckMs ?? upgradeRecheckMs(touchIntervalMs(config.sessionIdleMs)),
    // Called only once connections are open, long after the gateway below exists.
    check: (connection) => upgradeStillAllowed(gateway, connection),
  });
  signInEnds.listen((event) => {
    upgradedConnections.signInEnded(event.ended);
    return Promise.resolve();
  });
  const gateway: AppGateway = {
    config,
    storage,
    entries,
    clock,
    random,
    send,
    oidc,
    documents,
    sources: sourceOf,
    clientRedirectOrigins: () => clientRedirectOrigins(storage.providerClients),
    telemetry,
    ...(outbound === undefined
      ? {}
      : { closeOutbound: () => outbound.close(), abortOutbound: () => outbound.abort() }),
    sessions: {
      sessions: storage.sessions,
      users: storage.users,
      entries,
      clock,
      random,
      idleMs: config.sessionIdleMs,
      lifetimeMs: config.sessionLifetimeMs,
      ...(config.hosts.cookieDomain === undefined
        ? {}
        : { cookieDomain: config.hosts.cookieDomain }),
      revalidate: (session) =>
        revalidateBySource(
          {
            entries,
            upstreamSessions: storage.upstreamSessions,
            appTokens: storage.appTokens,
            oidc,
            send,
            clock,
          },
          session,
        ),
      signInEnded: (event) => signInEnds.raise(event),
    },
    sessionCache,
    signInEnds,
    memory: gatewayMemory(),
    upgradedConnections,
  };
  return gateway;
}
