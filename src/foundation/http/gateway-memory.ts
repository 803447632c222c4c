import type { Agent } from 'node:http';
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
  /** Closes the upstream connections and forgets everything; the memory stays usable. */
  release(): void;
}

export function gatewayMemory(): GatewayMemory {
  const memory = {
    cookieHeaders: new Map<string, ReadonlyMap<string, string>>(),
    configuredUrls: new Map<string, URL>(),
    identityHeaders: new WeakMap<UserRecord, readonly string[]>(),
    upstreamAgents: new Map<string, Agent>(),
    release(): void {
      // destroy() closes the idle pooled sockets and those in use alike; by
      // then the app has closed and its requests have finished.
      for (const agent of memory.upstreamAgents.values()) agent.destroy();
      memory.upstreamAgents.clear();
      memory.cookieHeaders.clear();
      memory.configuredUrls.clear();
    },
  };
  return memory;
}
