import type { JSONWebKeySet, createLocalJWKSet, errors as JoseErrors } from 'jose';
import type { Claims, OidcDiscovery } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import { loadJose } from './jose.js';
import type { ProviderMetadata } from './provider-metadata.js';

/** The signature algorithms accepted on provider tokens; `none` and HMAC never. */
const allowedAlgorithms = ['RS256', 'ES256', 'EdDSA'];

type KeyResolver = ReturnType<typeof createLocalJWKSet>;

/**
 * jose's resolver of each key set in use. The resolver keeps each key it has
 * imported (JWK to CryptoKey, the costly part), so a key is imported once
 * per key set, not once per token. Keyed by the key set object, which
 * ProviderMetadata replaces whole at every fetch: a fetched set gets a new
 * resolver, and one no longer in use is dropped with it.
 */
const resolvers = new WeakMap<JSONWebKeySet, KeyResolver>();

function resolverOf(
  keys: JSONWebKeySet,
  makeResolver: (keys: JSONWebKeySet) => KeyResolver,
): KeyResolver {
  let resolver = resolvers.get(keys);
  if (resolver === undefined) {
    resolver = makeResolver(keys);
    resolvers.set(keys, resolver);
  }
  return resolver;
}

/**
 * Verifies a provider-signed JWT's signature with the provider's key set and
 * returns its claims; the claims themselves are checked by the caller
 * (core's checkIdTokenClaims, the logout token's checks). A token the
 * key set in memory does not verify (a kid it lacks, or a known kid whose
 * signature fails: a key rotated under the same kid) fetches the key set
 * again (at most once a minute: ProviderMetadata) and is tried once more;
 * a kid still missing then fetches the discovery document, in case the
 * provider moved its key set. `refuse` names the caller's code.
 */
export async function verifyProviderJwt(
  metadata: ProviderMetadata,
  discovery: OidcDiscovery,
  token: string,
  refuse: 'id_token_invalid_signature' | 'logout_token_invalid',
): Promise<Claims> {
  // jose is loaded with the first OpenID Connect token, not with the gateway.
  const { compactVerify, createLocalJWKSet, errors } = await loadJose();
  const attempt = async (keys: JSONWebKeySet) =>
    compactVerify(token, resolverOf(keys, createLocalJWKSet), { algorithms: allowedAlgorithms });
  let verified;
  try {
    try {
      verified = await attempt(await metadata.keySet(discovery));
    } catch (error) {
      if (!mayBeRotated(errors, error)) throw error;
      // Rate-limited: undefined when the key set was fetched within the minute.
      const fresh = await metadata.refetchKeySet(discovery);
      if (fresh === undefined) throw error;
      try {
        verified = await attempt(fresh);
      } catch (again) {
        if (!(again instanceof errors.JWKSNoMatchingKey)) throw again;
        // The provider may have moved its key set: its discovery says where.
        const moved = await metadata.rediscover(discovery.issuer);
        if (moved.jwksUri === discovery.jwksUri) throw again;
        verified = await attempt(await metadata.keySet(moved));
      }
    }
  } catch (error) {
    if (error instanceof SsogateError) throw error;
    throw new SsogateError(
      refuse,
      `the token's signature does not verify (${describeJoseError(errors, error)})`,
      {
        cause: error,
      },
    );
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(verified.payload));
  } catch {
    throw new SsogateError(refuse, 'the token payload is not JSON');
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    throw new SsogateError(refuse, 'the token payload is not a JSON object');
  }
  return claims as Claims;
}

/** A refusal a newer copy of the key set could turn into a success. */
function mayBeRotated(errors: typeof JoseErrors, error: unknown): boolean {
  return (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWSSignatureVerificationFailed
  );
}

/** jose's error code, never the token: its messages do not quote it, but codes suffice. */
function describeJoseError(errors: typeof JoseErrors, error: unknown): string {
  if (error instanceof errors.JOSEError) return error.code;
  return error instanceof Error ? error.name : 'unknown';
}
