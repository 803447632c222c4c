import type { Claims, OidcDiscovery } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import { JwsRefusal, verifyCompactJws, type JsonWebKeySet } from './jws.js';
import type { ProviderMetadata } from './provider-metadata.js';

/** The signature algorithms accepted on provider tokens; `none` and HMAC never. */
const allowedAlgorithms = ['RS256', 'ES256', 'EdDSA'];

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
  const attempt = (keys: JsonWebKeySet) => verifyCompactJws(token, keys, allowedAlgorithms);
  let payload: Uint8Array;
  try {
    try {
      payload = attempt(await metadata.keySet(discovery));
    } catch (error) {
      if (!mayBeRotated(error)) throw error;
      // Rate-limited: undefined when the key set was fetched within the minute.
      const fresh = await metadata.refetchKeySet(discovery);
      if (fresh === undefined) throw error;
      try {
        payload = attempt(fresh);
      } catch (again) {
        if (!(again instanceof JwsRefusal && again.reason === 'no_matching_key')) throw again;
        // The provider may have moved its key set: its discovery says where.
        const moved = await metadata.rediscover(discovery.issuer);
        if (moved.jwksUri === discovery.jwksUri) throw again;
        payload = attempt(await metadata.keySet(moved));
      }
    }
  } catch (error) {
    if (error instanceof SsogateError) throw error;
    throw new SsogateError(
      refuse,
      `the token's signature does not verify (${describeRefusal(error)})`,
      { cause: error },
    );
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    throw new SsogateError(refuse, 'the token payload is not JSON');
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    throw new SsogateError(refuse, 'the token payload is not a JSON object');
  }
  return claims as Claims;
}

/** A refusal a newer copy of the key set could turn into a success. */
function mayBeRotated(error: unknown): boolean {
  return (
    error instanceof JwsRefusal &&
    (error.reason === 'no_matching_key' || error.reason === 'signature_invalid')
  );
}

/** Why the token was refused, in words that never quote it. */
function describeRefusal(error: unknown): string {
  if (error instanceof JwsRefusal) return `${error.reason}: ${error.message}`;
  return error instanceof Error ? error.name : 'unknown';
}
