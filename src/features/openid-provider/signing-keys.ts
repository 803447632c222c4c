import type { JWTPayload } from 'jose';
import type { JsonValue } from '../../core/index.js';
import { loadJose } from '../../foundation/oidc/jose.js';
import type { SigningKeyRecord, Storage } from '../../foundation/storage/types.js';
import { retiredKeyPublishedMs, signingKeyRotationMs } from './lifetimes.js';

/** The one algorithm: RS256, which every relying party must accept (OpenID Connect Core §15.1). */
const algorithm = 'RS256';

type KeyStorage = Pick<Storage, 'oidcSigningKeys'>;

/**
 * Makes a new key pair and makes it the signing key; every other key still
 * signing is retired, and stays published until its tokens have expired.
 * The kid is the key's JWK thumbprint (RFC 7638), the same on every instance.
 */
export async function rotateSigningKey(
  storage: KeyStorage,
  now: number,
): Promise<SigningKeyRecord> {
  // jose is loaded when the provider is first used, not with every gateway.
  const { calculateJwkThumbprint, exportJWK, generateKeyPair } = await loadJose();
  const { publicKey, privateKey } = await generateKeyPair(algorithm, {
    modulusLength: 2048,
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const key: SigningKeyRecord = {
    kid,
    publicJwk: { ...(publicJwk as Record<string, JsonValue>), kid, alg: algorithm, use: 'sig' },
    privateJwk: { ...((await exportJWK(privateKey)) as Record<string, JsonValue>), kid },
    createdAt: now,
    retiredAt: null,
    publishedUntil: null,
  };
  await storage.oidcSigningKeys.add(key);
  await storage.oidcSigningKeys.retireAllBut(kid, now, now + retiredKeyPublishedMs);
  return key;
}

/**
 * The key that signs now: the newest still signing, shared by every instance
 * through storage. Made on first use, and replaced when older than the
 * rotation period. Two instances making the first key at once each store
 * one; both are published, and the newest signs from then on.
 */
async function currentSigningKey(storage: KeyStorage, now: number): Promise<SigningKeyRecord> {
  const current = (await storage.oidcSigningKeys.published(now)).find(
    (key) => key.retiredAt === null,
  );
  if (current !== undefined && current.createdAt + signingKeyRotationMs > now) return current;
  return rotateSigningKey(storage, now);
}

/** A JWT signed with the current key; `typ` names what it is (JWT, logout+jwt). */
export async function signJwt(
  storage: KeyStorage,
  now: number,
  claims: JWTPayload,
  typ = 'JWT',
): Promise<string> {
  const key = await currentSigningKey(storage, now);
  const { SignJWT, importJWK } = await loadJose();
  const privateKey = await importJWK(key.privateJwk, algorithm);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: algorithm, kid: key.kid, typ })
    .sign(privateKey);
}

/** The JWK Set to publish: the public keys of every key signing or retired but not yet expired. */
export async function publishedKeySet(
  storage: KeyStorage,
  now: number,
): Promise<{ keys: Readonly<Record<string, JsonValue>>[] }> {
  // Made here if none is yet, so a relying party that reads the keys first finds one.
  await currentSigningKey(storage, now);
  const keys = await storage.oidcSigningKeys.published(now);
  return { keys: keys.map((key) => key.publicJwk) };
}
