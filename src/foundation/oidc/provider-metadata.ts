import type { JsonWebKeySet } from './jws.js';
import type { OidcDiscovery, OutboundRequest } from '../../core/index.js';
import { SsogateError, discoveryUrl, isSsogateError, parseDiscovery } from '../../core/index.js';
import type { AddressPolicy } from '../outbound/address-policy.js';
import type { SendOutbound } from '../outbound/outbound-policy.js';

/** How long a discovery document is used before it is fetched again. */
export const discoveryRefreshMs = 24 * 60 * 60 * 1000;
/** How long a failed fetch is remembered before the next sign-in tries again. */
const failureRetryMs = 30 * 1000;
/** The least time between two fetches of a key set for a token it did not verify. */
const keySetRefetchMs = 60 * 1000;
/**
 * How long a key set is used when its answer names no max-age. Shorter than
 * a discovery document's day: a key the provider stopped publishing (taken
 * out because it leaked, say) verifies nothing an hour later at the latest.
 */
export const keySetDefaultLifetimeMs = 60 * 60 * 1000;
/** A key set asked to be kept less (`max-age` under 60, `no-store`, `no-cache`) is kept this long. */
export const keySetMinLifetimeMs = 60 * 1000;
/** Discovery documents and key sets are small; a larger answer is refused. */
const maxMetadataBytes = 256 * 1024;
const metadataTimeoutMs = 10_000;

/** What the API and the console show of an issuer's discovery. */
interface DiscoveryStatus {
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

/** A fetch under way, shared by concurrent callers, and the last failure. */
interface FetchSlot<T> {
  failure: { at: number; error: SsogateError } | undefined;
  inFlight: Promise<T> | undefined;
}

interface DiscoverySlot extends FetchSlot<OidcDiscovery> {
  document: OidcDiscovery | undefined;
  fetchedAt: number;
}

interface KeySetSlot extends FetchSlot<JsonWebKeySet> {
  /** The last key set fetched, replaced whole by the next: never merged. */
  keys: JsonWebKeySet | undefined;
  /** When `keys` stops being used (keySetLifetimeMs after its fetch). */
  expiresAt: number;
  /** When a token the key set did not verify last fetched it again. */
  refetchedAt: number | undefined;
}

/** Which of the two metadata calls failed, for its message and the audit's facts. */
interface MetadataStep {
  readonly name: 'discovery' | 'key_set';
  readonly label: string;
}
const discoveryStep: MetadataStep = { name: 'discovery', label: 'the discovery document' };
const keySetStep: MetadataStep = { name: 'key_set', label: 'the key set (jwks_uri)' };

/**
 * The OpenID Providers' metadata, per issuer, as this instance last fetched
 * it: discovery documents (refreshed after a day, or at once when a token is
 * signed by a key the cached key set lacks) and key sets (used for the
 * answer's max-age, between a minute and a day, then fetched anew and
 * replaced whole; fetched again early when a token does not verify, at most
 * once a minute). Every fetch goes through the gateway's outbound client, so
 * the address policy, time-out and size cap apply as to any other call.
 */
export class ProviderMetadata {
  private readonly discoveries = new Map<string, DiscoverySlot>();
  private readonly keySets = new Map<string, KeySetSlot>();
  private changes = 0;

  constructor(
    private readonly send: SendOutbound,
    private readonly clock: () => number,
    /** Judges the endpoints a document names as it is read (the operator's allowlist included). */
    private readonly policy: AddressPolicy,
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

  /**
   * The provider's key set: the copy in memory while younger than its
   * lifetime, otherwise fetched anew. An expired copy is never used, even
   * when the fetch fails (a failure is remembered for 30 s).
   */
  async keySet(discovery: OidcDiscovery): Promise<JsonWebKeySet> {
    const slot = this.keySetSlot(discovery.jwksUri);
    const now = this.clock();
    if (slot.keys !== undefined && now < slot.expiresAt) return slot.keys;
    if (slot.failure !== undefined && now - slot.failure.at < failureRetryMs) {
      throw slot.failure.error;
    }
    return this.fetchKeySet(discovery.jwksUri, slot);
  }

  /**
   * A new copy of the key set, because a token did not verify with the one
   * in memory: it names a kid the copy lacks (a new key), or a known kid's
   * signature fails (a key rotated under the same kid). Undefined when a
   * token fetched it again less than a minute ago, so a stream of forged
   * tokens cannot make the gateway hammer the provider.
   */
  async refetchKeySet(discovery: OidcDiscovery): Promise<JsonWebKeySet | undefined> {
    const slot = this.keySetSlot(discovery.jwksUri);
    const now = this.clock();
    if (slot.refetchedAt !== undefined && now - slot.refetchedAt < keySetRefetchMs) {
      return undefined;
    }
    slot.refetchedAt = now;
    return this.fetchKeySet(discovery.jwksUri, slot);
  }

  private keySetSlot(jwksUri: string): KeySetSlot {
    let slot = this.keySets.get(jwksUri);
    if (slot === undefined) {
      slot = {
        keys: undefined,
        expiresAt: 0,
        refetchedAt: undefined,
        failure: undefined,
        inFlight: undefined,
      };
      this.keySets.set(jwksUri, slot);
    }
    return slot;
  }

  private fetchKeySet(jwksUri: string, slot: KeySetSlot): Promise<JsonWebKeySet> {
    return this.shared(slot, async () => {
      const { body, headers } = await this.fetchJson(jwksUri, keySetStep);
      const keys = JSON.parse(body) as unknown;
      if (!isKeySet(keys)) {
        throw new SsogateError('oidc_discovery_invalid', `${jwksUri} is not a JWK set`);
      }
      // Replaced whole: a key the provider no longer publishes is gone at once.
      slot.keys = keys;
      slot.expiresAt = this.clock() + keySetLifetimeMs(headers);
      return keys;
    });
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
    return this.shared(slot, async () => {
      const { body } = await this.fetchJson(discoveryUrl(issuer), discoveryStep);
      const document = parseDiscovery(body, issuer);
      refuseInternalEndpoints(document, this.policy);
      const changed = JSON.stringify(document) !== JSON.stringify(slot.document);
      slot.document = document;
      slot.fetchedAt = this.clock();
      if (changed) this.changes += 1;
      return document;
    });
  }

  /**
   * Runs `load` once for concurrent callers (sign-ins share one fetch); a
   * failure is coded and remembered in the slot, a success clears it.
   */
  private shared<T>(slot: FetchSlot<T>, load: () => Promise<T>): Promise<T> {
    slot.inFlight ??= (async () => {
      try {
        const value = await load();
        slot.failure = undefined;
        return value;
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

  /**
   * One metadata document, as JSON. A failure names the step (the discovery
   * document or the key set) and the status, so an operator who reads
   * `oidc_discovery_failed` knows which of the two calls to look at.
   */
  private async fetchJson(
    url: string,
    step: MetadataStep,
  ): Promise<{
    readonly body: string;
    readonly headers: Readonly<Record<string, string>>;
  }> {
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
      throw new SsogateError(
        'oidc_discovery_failed',
        `fetching ${step.label} ${url} failed (${reason})`,
        { cause: error, facts: { step: step.name } },
      );
    }
    if (response.status !== 200) {
      throw new SsogateError(
        'oidc_discovery_failed',
        `${step.label} ${url} answered status ${response.status}`,
        { facts: { step: step.name, status: response.status } },
      );
    }
    try {
      JSON.parse(response.body);
    } catch {
      throw new SsogateError('oidc_discovery_invalid', `${step.label} ${url} did not answer JSON`, {
        facts: { step: step.name },
      });
    }
    return { body: response.body, headers: response.headers ?? {} };
  }
}

/**
 * How long a key set answer may be used (RFC 9111 §4.2.1): its Cache-Control
 * `max-age` less its `Age`, at least a minute (also for `no-store` and
 * `no-cache`: fetching the key set at every sign-in would let sign-ins flood
 * the provider) and at most a day, the discovery document's own refresh.
 * Without a usable max-age: an hour.
 */
export function keySetLifetimeMs(headers: Readonly<Record<string, string>>): number {
  const directives = new Map(
    (headers['cache-control'] ?? '').split(',').map((directive) => {
      const [name = '', value = ''] = directive.split('=', 2);
      return [name.trim().toLowerCase(), value.trim().replace(/^"(.*)"$/, '$1')] as const;
    }),
  );
  if (directives.has('no-store') || directives.has('no-cache')) return keySetMinLifetimeMs;
  const maxAge = directives.get('max-age');
  if (maxAge === undefined || !/^\d+$/.test(maxAge)) return keySetDefaultLifetimeMs;
  const age = /^\d+$/.test(headers.age ?? '') ? Number(headers.age) : 0;
  const lifetimeMs = (Number(maxAge) - age) * 1000;
  return Math.min(Math.max(lifetimeMs, keySetMinLifetimeMs), discoveryRefreshMs);
}

/**
 * Refuses a discovery document that names an address the outbound policy
 * refuses (this host, the internal network, a metadata service) for any
 * endpoint, when it is read rather than when each endpoint is first
 * called: the gateway calls the token, user-info and key set endpoints
 * itself, and a document written by a remote party that points even a
 * browser-only endpoint (authorization, end of session) inside is not one
 * to trust. Names are judged by name here and by the addresses they resolve
 * to at each call (src/foundation/outbound/outbound-client.ts).
 */
function refuseInternalEndpoints(document: OidcDiscovery, policy: AddressPolicy): void {
  const endpoints: [string, string | undefined][] = [
    ['authorization_endpoint', document.authorizationEndpoint],
    ['token_endpoint', document.tokenEndpoint],
    ['userinfo_endpoint', document.userInfoEndpoint],
    ['jwks_uri', document.jwksUri],
    ['end_session_endpoint', document.endSessionEndpoint],
  ];
  for (const [field, url] of endpoints) {
    if (url === undefined) continue;
    const refusal = policy.hostRefusal(new URL(url).hostname);
    if (refusal !== undefined) {
      throw new SsogateError(
        'oidc_discovery_invalid',
        `the discovery document's ${field} names a refused address: ${refusal}; the gateway does not call such addresses unless SSOGATE_OUTBOUND_ALLOW lists them`,
        { field },
      );
    }
  }
}

function isKeySet(value: unknown): value is JsonWebKeySet {
  if (value === null || typeof value !== 'object') return false;
  const keys = (value as { keys?: unknown }).keys;
  return Array.isArray(keys) && keys.every((key) => key !== null && typeof key === 'object');
}
