import {
  createPublicKey,
  verify,
  type JsonWebKey,
  type KeyObject,
  type VerifyKeyObjectInput,
} from 'node:crypto';

/**
 * Verifies a compact JWS (RFC 7515 §7.1) against a provider's JSON Web Key
 * Set (RFC 7517) with node:crypto, synchronously.
 *
 * Why not WebCrypto (jose's `compactVerify`): an RS256 verification there is
 * a job handed to libuv's thread pool and back, about 47 µs of CPU where the
 * same verification through `crypto.verify` costs about 16 µs (Node.js 24,
 * 2048-bit key: bench/jws-verify.ts), and a provider's token is verified at every OpenID Connect
 * sign-in (docs/benchmarks.md#openid-connect-sign-ins).
 *
 * What it accepts is deliberately narrow: the algorithms the caller allows
 * (never `none` nor an HMAC: a provider token is not signed with a secret
 * the gateway holds), no `crit` extension (RFC 7515 §4.1.11: none is
 * understood, so any is refused), public keys only, RSA keys of 2048 bits or
 * more, and exactly one key of the set fit for the token (RFC 7517 §4: the
 * `kid`, `kty`, `crv`, `use`, `key_ops` and `alg` it names).
 */

/** Why a token was refused; the message never quotes the token. */
type JwsRefusalReason =
  | 'malformed'
  | 'algorithm_not_allowed'
  | 'no_matching_key'
  | 'several_matching_keys'
  | 'key_unusable'
  | 'signature_invalid';

export class JwsRefusal extends Error {
  constructor(
    readonly reason: JwsRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'JwsRefusal';
  }
}

/** A JSON Web Key as a provider publishes it; members beyond these are ignored. */
interface PublicJwk {
  readonly kty?: unknown;
  readonly kid?: unknown;
  readonly use?: unknown;
  readonly key_ops?: unknown;
  readonly alg?: unknown;
  readonly crv?: unknown;
  readonly [member: string]: unknown;
}

export interface JsonWebKeySet {
  readonly keys: readonly PublicJwk[];
}

interface SignatureAlgorithm {
  /** The JWK key type and curve the algorithm needs (RFC 7518 §6, RFC 8037 §2). */
  readonly kty: 'RSA' | 'EC' | 'OKP';
  readonly crv?: string;
  /** node:crypto's name for the key, as `KeyObject.asymmetricKeyType` reports it. */
  readonly keyType: 'rsa' | 'ec' | 'ed25519';
  /** The digest `crypto.verify` is given; Ed25519 hashes internally (null). */
  readonly digest: 'sha256' | null;
  /** ECDSA signatures in a JWS are r ‖ s, not DER (RFC 7518 §3.4). */
  readonly dsaEncoding?: 'ieee-p1363';
  /** The exact signature length, where the algorithm fixes one. */
  readonly signatureBytes?: number;
}

const signatureAlgorithms: Readonly<Record<string, SignatureAlgorithm>> = {
  RS256: { kty: 'RSA', keyType: 'rsa', digest: 'sha256' },
  ES256: {
    kty: 'EC',
    crv: 'P-256',
    keyType: 'ec',
    digest: 'sha256',
    dsaEncoding: 'ieee-p1363',
    signatureBytes: 64,
  },
  EdDSA: { kty: 'OKP', crv: 'Ed25519', keyType: 'ed25519', digest: null, signatureBytes: 64 },
};

/** RSA keys shorter than this are refused (RFC 7518 §3.3). */
const minRsaBits = 2048;

/**
 * The key objects imported from each key set, by the JWK they came from.
 * Importing is the costly part; ProviderMetadata replaces a key set whole at
 * every fetch, so a fetched set starts empty and a dropped one goes with it.
 */
const importedKeys = new WeakMap<PublicJwk, KeyObject | JwsRefusal>();

/** base64url without padding (RFC 7515 §2); Buffer's decoder skips what it does not know. */
const base64url = /^[A-Za-z0-9_-]*$/;

function decodeSegment(segment: string, name: string): Buffer {
  if (!base64url.test(segment) || segment.length % 4 === 1) {
    throw new JwsRefusal('malformed', `the token's ${name} is not base64url`);
  }
  return Buffer.from(segment, 'base64url');
}

/**
 * Verifies `token`'s signature with the one key of `keySet` fit for it and
 * returns the payload's bytes; the claims are the caller's to check. Throws
 * a JwsRefusal otherwise.
 */
export function verifyCompactJws(
  token: string,
  keySet: JsonWebKeySet,
  allowedAlgorithms: readonly string[],
): Uint8Array {
  const segments = token.split('.');
  if (segments.length !== 3) throw new JwsRefusal('malformed', 'the token is not a compact JWS');
  const [encodedHeader = '', encodedPayload = '', encodedSignature = ''] = segments;
  const header = parseHeader(decodeSegment(encodedHeader, 'header'));
  const payload = decodeSegment(encodedPayload, 'payload');
  const signature = decodeSegment(encodedSignature, 'signature');

  const { alg, kid } = header;
  const algorithm =
    typeof alg === 'string' && allowedAlgorithms.includes(alg)
      ? signatureAlgorithms[alg]
      : undefined;
  if (algorithm === undefined || typeof alg !== 'string') {
    throw new JwsRefusal(
      'algorithm_not_allowed',
      'the token is not signed with an allowed algorithm',
    );
  }
  if (kid !== undefined && typeof kid !== 'string') {
    throw new JwsRefusal('malformed', "the token's kid is not a string");
  }
  if (algorithm.signatureBytes !== undefined && signature.length !== algorithm.signatureBytes) {
    throw new JwsRefusal('signature_invalid', 'the signature has the wrong length');
  }
  const key = keyFor(keySet, alg, algorithm, kid);
  const input: VerifyKeyObjectInput | KeyObject =
    algorithm.dsaEncoding === undefined ? key : { key, dsaEncoding: algorithm.dsaEncoding };
  // RFC 7515 §5.2: the signing input is the two encoded segments as they came.
  const signingInput = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'latin1');
  if (!verify(algorithm.digest, signingInput, input, signature)) {
    throw new JwsRefusal('signature_invalid', 'the signature does not verify');
  }
  return payload;
}

function parseHeader(bytes: Buffer): Readonly<Record<string, unknown>> {
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new JwsRefusal('malformed', "the token's header is not JSON");
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) {
    throw new JwsRefusal('malformed', "the token's header is not a JSON object");
  }
  if ('crit' in header) {
    throw new JwsRefusal(
      'malformed',
      'the token names critical extensions, none of which are understood',
    );
  }
  return header as Readonly<Record<string, unknown>>;
}

/** The one key of the set fit for the token, imported once per JWK. */
function keyFor(
  keySet: JsonWebKeySet,
  alg: string,
  algorithm: SignatureAlgorithm,
  kid: string | undefined,
): KeyObject {
  const candidates = keySet.keys.filter((jwk) => fitsToken(jwk, alg, algorithm, kid));
  const [jwk] = candidates;
  if (jwk === undefined)
    throw new JwsRefusal('no_matching_key', 'no key of the key set fits the token');
  if (candidates.length > 1) {
    throw new JwsRefusal(
      'several_matching_keys',
      'several keys of the key set fit the token, which names no kid to choose one',
    );
  }
  let key = importedKeys.get(jwk);
  if (key === undefined) {
    key = importKey(jwk, algorithm);
    importedKeys.set(jwk, key);
  }
  if (key instanceof JwsRefusal) throw key;
  return key;
}

/** RFC 7517 §4: a key is used only as its own members allow. */
function fitsToken(
  jwk: PublicJwk,
  alg: string,
  algorithm: SignatureAlgorithm,
  kid: string | undefined,
): boolean {
  const keyOps = jwk.key_ops;
  return (
    jwk.kty === algorithm.kty &&
    (algorithm.crv === undefined || jwk.crv === algorithm.crv) &&
    (kid === undefined || jwk.kid === kid) &&
    (jwk.alg === undefined || jwk.alg === alg) &&
    (jwk.use === undefined || jwk.use === 'sig') &&
    (keyOps === undefined || (Array.isArray(keyOps) && keyOps.includes('verify')))
  );
}

function importKey(jwk: PublicJwk, algorithm: SignatureAlgorithm): KeyObject | JwsRefusal {
  // A published private key is a provider's mistake, not a key to verify with.
  if ('d' in jwk || 'p' in jwk || 'k' in jwk) {
    return new JwsRefusal('key_unusable', 'the key set publishes a private or secret key');
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { ...jwk } as JsonWebKey, format: 'jwk' });
  } catch {
    return new JwsRefusal('key_unusable', 'a key of the key set cannot be imported');
  }
  if (key.asymmetricKeyType !== algorithm.keyType) {
    return new JwsRefusal('key_unusable', 'a key of the key set is not of its stated type');
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (algorithm.kty === 'RSA' && (bits === undefined || bits < minRsaBits)) {
    return new JwsRefusal(
      'key_unusable',
      `an RSA key of the key set is shorter than ${minRsaBits} bits`,
    );
  }
  return key;
}
