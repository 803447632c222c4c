import type { RandomSource } from '../../core/index.js';
import type { Config } from '../config/load-config.js';
import type { EntryRegistry } from '../entries/entry-registry.js';
import type { Telemetry } from '../observability/telemetry.js';
import type { FetchedDocuments } from '../outbound/fetched-documents.js';
import type { SendOutbound } from '../outbound/outbound-policy.js';
import type { ProviderMetadata } from '../oidc/provider-metadata.js';
import type { SessionRecord, SessionStore, Storage, UserStore } from '../storage/types.js';
import type { GatewayMemory } from './gateway-memory.js';
import type { SessionCache } from './session-cache.js';
import type { UpgradedConnections } from './upgraded-connections.js';
import type { SignInEndListener, SignInEnds } from '../storage/sign-in-ends.js';
import type { SignOutSources } from './source-sign-out.js';

/**
 * Everything the routes need, made once at start-up and passed in: no route
 * reads the environment, the wall clock or global randomness directly, so
 * tests build a gateway with their own clock, storage and outbound client.
 */
export interface Gateway {
  readonly config: Config;
  readonly storage: Storage;
  readonly entries: EntryRegistry;
  readonly clock: () => number;
  readonly random: RandomSource;
  readonly send: SendOutbound;
  readonly sessions: SessionDeps;
  /** Sessions found valid by recent checks (session-cache.ts), this gateway's own. */
  readonly sessionCache: SessionCache;
  /** Every ending of a gateway sign-in, raised once written; parts holding what is tied to one listen. */
  readonly signInEnds: SignInEnds;
  /** Parsed headers and URLs, encoded identities, upstream agents: this gateway's own (gateway-memory.ts). */
  readonly memory: GatewayMemory;
  /** Open proxied WebSockets, closed when their session ends (upgraded-connections.ts). */
  readonly upgradedConnections: UpgradedConnections;
  /** OpenID Providers' discovery documents and key sets, as this instance fetched them. */
  readonly oidc: ProviderMetadata;
  /** Documents fetched from URLs entries name (SAML identity providers' metadata), as this instance fetched them. */
  readonly documents: FetchedDocuments;
  /**
   * What signing out asks of an entry's kind of sign-in source
   * (src/features/sign-in/sources/source-registry.ts, handed in by app/).
   */
  readonly sources: SignOutSources;
  /**
   * The origins of the redirect URIs registered with the gateway's OpenID
   * Provider (handed in by app/ from src/features/openid-provider/): a
   * sign-in by a form of the gateway may end there, so the form's CSP
   * form-action allows them (src/features/sign-in/application-origins.ts).
   */
  readonly clientRedirectOrigins?: () => Promise<readonly string[]>;
  /** Metrics and traces (src/foundation/observability/), each off unless configured. */
  readonly telemetry: Telemetry;
  /** Closes the gateway's own outbound connections, when it made its client; at app close. */
  readonly closeOutbound?: () => Promise<void>;
  /** Ends its calls under way at once, when it made its client; at a stop's deadline. */
  readonly abortOutbound?: () => Promise<void>;
}

/** What the session functions (src/features/sessions/session-service.ts) need. */
export interface SessionDeps {
  readonly sessions: SessionStore;
  readonly users: UserStore;
  /** A session lasts no longer than its entry stays enabled. */
  readonly entries: EntryRegistry;
  readonly clock: () => number;
  readonly random: RandomSource;
  readonly idleMs: number;
  readonly lifetimeMs: number;
  /**
   * SSOGATE_COOKIE_DOMAIN (config/served-hosts.ts cookieDomain): a sign-in's
   * session is then bound to the domain, whose every host its cookie reaches.
   */
  readonly cookieDomain?: string;
  /**
   * Re-checks a session with its OpenID Provider when due (an entry's
   * `oidc.revalidateMinutes`, sessions/revalidate-session.ts); false ends it.
   */
  readonly revalidate?: (session: SessionRecord) => Promise<boolean>;
  /**
   * Raises a sign-in's end (foundation/storage/sign-in-ends.ts): the
   * gateway's own, or held until a unit of work commits.
   */
  readonly signInEnded: SignInEndListener;
}
