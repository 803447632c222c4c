import type { JSONWebKeySet } from 'jose';
import type { OidcDiscovery, OutboundRequest } from '../core/index.js';
import { SsogateError, discoveryUrl, isSsogateError, parseDiscovery } from '../core/index.js';
import type { SendOutbound } from '../outbound/outbound-policy.js';

/** How long a discovery document is used before it is fetched again. */
export const discoveryRefreshMs = 24 * 60 * 60 * 1000;
/** How long a failed fetch is remembered before the next sign-in tries again. */
export const failureRetryMs = 30 * 1000;
/** The least time between two fetches of a key set for an unknown kid. */
export const keySetRefetchMs = 60 * 1000;
/** Discovery documents and key sets are small; a larger answer is refused. */
const maxMetadataBytes = 256 * 1024;
const metadataTimeoutMs = 10_000;

/** What the API and the console show of an issuer's discovery. */
export interface DiscoveryStatus {
  readonly state: 'ok' | 'failed' | 'not_fetched';
  readonly fetchedAt: number | null;
  /** The failure's code and message, when the last fetch failed. */
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly endpoints: {
    readonly authorization: string;
    readonly token: string;
    readonly userInfo: string | null;
    readonly jwks: string;
    readonly endSession: string | null;
  } | null;
}

interface DiscoverySlot {
  document: OidcDiscovery | undefined;
  fetchedAt: number;
  failure: { at: number; error: SsogateError } | undefined;
  inFlight: Promise<OidcDiscovery> | undefined;
}

interface KeySetSlot {
  keys: JSONWebKeySet;
  fetchedAt: number;
}

/**
 * The OpenID Providers' metadata, per issuer, as this instance last fetched
 * it: discovery documents (refreshed after a day, or at once when a token is
 * signed by a key the cached key set lacks) and key sets (fetched again on
 * an unknown kid, at most once a minute). Every fetch goes through the
 * gateway's outbound client, so the address policy, time-out and size cap
 * apply as to any other call.
 */
export class ProviderMetadata {
  private readonly discoveries = new Map<string, DiscoverySlot>();
  private readonly keySets = new Map<string, KeySetSlot>();
  private changes = 0;

  constructor(
    private readonly send: SendOutbound,
    private readonly clock: () => number,
  ) {}

  /** Moves whenever a document is fetched anew, so compiled entries are made again. */
  generation(): number {
    return this.changes;
  }

  /**
   * The issuer's discovery document: the cached one while fresh; fetched
   * when missing or older than a day. A failed refresh keeps the older
   * document in use; a failure without one is remembered for 30 s.
   */
  async discovery(issuer: string): Promise<OidcDiscovery> {
    const slot = this.slot(issuer);
    const now = this.clock();
    if (slot.document !== undefined && now - slot.fetchedAt < discoveryRefreshMs) {
      return slot.document;
    }
    if (slot.failure !== undefined && now - slot.failure.at < failureRetryMs) {
      if (slot.document !== undefined) return slot.document;
      throw slot.failure.error;
    }
    try {
      return await this.fetchDiscovery(issuer, slot);
    } catch (error) {
      if (slot.document !== undefined) return slot.document;
      throw error;
    }
  }

  /** Forgets the issuer's document and fetches it again (a kid no key set knows). */
  async rediscover(issuer: string): Promise<OidcDiscovery> {
    return this.fetchDiscovery(issuer, this.slot(issuer));
  }

  status(issuer: string): DiscoveryStatus {
    const slot = this.discoveries.get(issuer);
    const document = slot?.document;
    const failure = slot?.failure;
    return {
      state: failure !== undefined ? 'failed' : document !== undefined ? 'ok' : 'not_fetched',
      fetchedAt: document === undefined ? null : (slot?.fetchedAt ?? null),
      error:
        failure === undefined ? null : { code: failure.error.code, message: failure.error.message },
      endpoints:
        document === undefined
          ? null
          : {
              authorization: document.authorizationEndpoint,
              token: document.tokenEndpoint,
              userInfo: document.userInfoEndpoint ?? null,
              jwks: document.jwksUri,
              endSession: document.endSessionEndpoint ?? null,
            },
    };
  }

  /** The provider's key set, fetched once and kept until a token names a kid it lacks. */
  async keySet(discovery: OidcDiscovery): Promise<JSONWebKeySet> {
    return this.keySets.get(discovery.jwksUri)?.keys ?? this.fetchKeySet(discovery);
  }

  /**
   * A new copy of the key set, because a token named a kid the cached one
   * lacks (the provider rotated its keys); undefined when the last fetch is
   * less than a minute old, so a stream of forged kids cannot make the
   * gateway hammer the provider.
   */
  async refetchKeySet(discovery: OidcDiscovery): Promise<JSONWebKeySet | undefined> {
    const cached = this.keySets.get(discovery.jwksUri);
    if (cached !== undefined && this.clock() - cached.fetchedAt < keySetRefetchMs) return undefined;
    return this.fetchKeySet(discovery);
  }

  private async fetchKeySet(discovery: OidcDiscovery): Promise<JSONWebKeySet> {
    const body = await this.fetchJson(discovery.jwksUri);
    const keys = JSON.parse(body) as unknown;
    if (!isKeySet(keys)) {
      throw new SsogateError('oidc_discovery_invalid', `${discovery.jwksUri} is not a JWK set`);
    }
    this.keySets.set(discovery.jwksUri, { keys, fetchedAt: this.clock() });
    return keys;
  }

  private slot(issuer: string): DiscoverySlot {
    let slot = this.discoveries.get(issuer);
    if (slot === undefined) {
      slot = { document: undefined, fetchedAt: 0, failure: undefined, inFlight: undefined };
      this.discoveries.set(issuer, slot);
    }
    return slot;
  }

  private fetchDiscovery(issuer: string, slot: DiscoverySlot): Promise<OidcDiscovery> {
    // Concurrent sign-ins share one fetch.
    slot.inFlight ??= (async () => {
      try {
        const document = parseDiscovery(await this.fetchJson(discoveryUrl(issuer)), issuer);
        const changed = JSON.stringify(document) !== JSON.stringify(slot.document);
        slot.document = document;
        slot.fetchedAt = this.clock();
        slot.failure = undefined;
        if (changed) this.changes += 1;
        return document;
      } catch (error) {
        const coded = isSsogateError(error)
          ? error
          : new SsogateError('oidc_discovery_failed', String(error));
        slot.failure = { at: this.clock(), error: coded };
        throw coded;
      } finally {
        slot.inFlight = undefined;
      }
    })();
    return slot.inFlight;
  }

  private async fetchJson(url: string): Promise<string> {
    const request: OutboundRequest = {
      method: 'GET',
      url,
      headers: { accept: 'application/json' },
      body: undefined,
      timeoutMs: metadataTimeoutMs,
      maxResponseBytes: maxMetadataBytes,
    };
    let response;
    try {
      response = await this.send(request);
    } catch (error) {
      const reason = isSsogateError(error) ? `${error.code}: ${error.message}` : String(error);
      throw new SsogateError('oidc_discovery_failed', `fetching ${url} failed (${reason})`, {
        cause: error,
      });
    }
    if (response.status !== 200) {
      throw new SsogateError('oidc_discovery_failed', `${url} answered status ${response.status}`);
    }
    try {
      JSON.parse(response.body);
    } catch {
      throw new SsogateError('oidc_discovery_invalid', `${url} did not answer JSON`);
    }
    return response.body;
  }
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  if (value === null || typeof value !== 'object') return false;
  const keys = (value as { keys?: unknown }).keys;
  return Array.isArray(keys) && keys.every((key) => key !== null && typeof key === 'object');
}
