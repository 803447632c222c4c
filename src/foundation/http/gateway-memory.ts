import type { Agent } from 'node:http';
import type { Client } from 'ldapts';
import { PoolsByKey } from '../outbound/connection-pool.js';
import type { UserRecord } from '../storage/types.js';

/**
 * What a gateway remembers between requests to spare work on its hot paths,
 * each gateway its own: two gateways in one process share none of it, and
 * closing a gateway's app releases it (src/app/build-app.ts).
 */
export interface GatewayMemory {
  /** Raw Cookie headers (which hold session ids) and their pairs: browser-cookies.ts. */
  readonly cookieHeaders: Map<string, ReadonlyMap<string, string>>;
  /** The configured URLs (public URL, upstream origins), each parsed once: reverse-proxy/forward-context.ts. */
  readonly configuredUrls: Map<string, URL>;
  /** An allowed check's headers by remembered user record: forward-auth/decision.ts. */
  readonly identityHeaders: WeakMap<UserRecord, readonly string[]>;
  /** One keep-alive agent per upstream origin: reverse-proxy/upstream-client.ts. */
  readonly upstreamAgents: Map<string, Agent>;
  /**
   * LDAP entries' pools of connections bound as their service account, by
   * entry id: src/features/ldap-directory/directory-pool.ts.
   */
  readonly directoryPools: PoolsByKey<Client>;
  /** The last host the access rules read, and its reading: access-rules/access-rules.ts. */
  readonly lastHost: LastHost;
  /** The last Connection header read, and the names it lists: reverse-proxy/proxy-headers.ts. */
  readonly lastConnection: LastConnection;
  /** Closes the upstream and directory connections and forgets everything; the memory stays usable. */
  release(): void;
}

/**
 * A host as the access rules compare it (access-rules.ts canonicalHost):
 * the name and, unless it is a default one, the port.
 */
export interface CanonicalHost {
  readonly name: string;
  readonly port: number | undefined;
}

/**
 * A one-entry memory of the last host read: every proxied request asks for
 * the same host or nearly so. Written in place, so a hit allocates nothing.
 */
export interface LastHost {
  text: string;
  canonical: CanonicalHost | undefined;
}

/** A one-entry memory of the last Connection header: nearly every message carries the same one, or none. */
export interface LastConnection {
  header: string;
  named: ReadonlySet<string>;
}

const nothingNamed: ReadonlySet<string> = new Set();

export function gatewayMemory(): GatewayMemory {
  const memory: GatewayMemory = {
    cookieHeaders: new Map<string, ReadonlyMap<string, string>>(),
    configuredUrls: new Map<string, URL>(),
    identityHeaders: new WeakMap<UserRecord, readonly string[]>(),
    upstreamAgents: new Map<string, Agent>(),
    directoryPools: new PoolsByKey<Client>(),
    lastHost: { text: '', canonical: undefined },
    lastConnection: { header: '', named: nothingNamed },
    release(): void {
      // destroy() closes the idle pooled sockets and those in use alike; by
      // then the app has closed and its requests have finished.
      for (const agent of memory.upstreamAgents.values()) agent.destroy();
      memory.upstreamAgents.clear();
      memory.directoryPools.closeAll();
      memory.cookieHeaders.clear();
      memory.configuredUrls.clear();
      memory.lastHost.text = '';
      memory.lastHost.canonical = undefined;
      memory.lastConnection.header = '';
      memory.lastConnection.named = nothingNamed;
    },
  };
  return memory;
}
