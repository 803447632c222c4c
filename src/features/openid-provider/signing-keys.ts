import type { JWTPayload } from 'jose';
import type { JsonValue } from '../../core/index.js';
import { loadJose } from '../../foundation/oidc/jose.js';
import type { ProviderStores } from './storage/provider-stores.js';
import type { SigningKeyRecord } from './storage/types.js';
import { nextKeyLeadMs, retiredKeyPublishedMs, signingKeyRotationMs } from './lifetimes.js';

/** The one algorithm: RS256, which every relying party must accept (OpenID Connect Core §15.1). */
const algorithm = 'RS256';

type KeyStorage = Pick<ProviderStores, 'providerSigningKeys'>;

/**
 * A new key pair, stored, signing from `signsFrom` (now, or later for the
 * next key, published until then without signing). The kid is the key's
 * JWK thumbprint (RFC 7638), the same on every instance.
 */
async function makeKey(storage: KeyStorage, signsFrom: number): Promise<SigningKeyRecord> {
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
    createdAt: signsFrom,
    retiredAt: null,
    publishedUntil: null,
  };
  await storage.providerSigningKeys.add(key);
  return key;
}

/**
 * Makes a key sign from now on, at once (`ssogate oidc rotate-key`): the
 * next key if one is published already, so that relying parties that keep
 * the key set know it; otherwise, or when `revoke` says the old keys may
 * have been seen (the next one with them), a new key. Every other key is
 * retired and stays published until its tokens have expired; with
 * `revoke`, none stays published, and their tokens stop verifying.
 */
export async function rotateSigningKey(
  storage: KeyStorage,
  now: number,
  { revoke = false }: { readonly revoke?: boolean } = {},
): Promise<SigningKeyRecord> {
  const next = revoke
    ? undefined
    : keysOf(await storage.providerSigningKeys.published(now), now).next;
  let key: SigningKeyRecord;
  if (next === undefined) key = await makeKey(storage, now);
  else {
    await storage.providerSigningKeys.signFrom(next.kid, now);
    key = { ...next, createdAt: now };
  }
  if (revoke) await storage.providerSigningKeys.unpublishAllBut(key.kid, now);
  else await storage.providerSigningKeys.retireAllBut(key.kid, now, now + retiredKeyPublishedMs);
  return key;
}

/** The key signing at `now` (the newest of those whose time has come) and the next, published ahead. */
function keysOf(
  published: readonly SigningKeyRecord[],
  now: number,
): { signing: SigningKeyRecord[]; next: SigningKeyRecord | undefined } {
  const unretired = published.filter((key) => key.retiredAt === null);
  return {
    signing: unretired.filter((key) => key.createdAt <= now),
    next: unretired.find((key) => key.createdAt > now),
  };
}

/**
 * The key that signs now, shared by every instance through storage: made
 * on first use. The schedule (docs/openid-provider.md#signing-keys): from
 * `nextKeyLeadMs` before the signing key is `signingKeyRotationMs` old, a
 * next key is published, signing from then on. A relying party that keeps
 * the key set (openid-client and jose fetch it again for an unknown kid
 * only after a cool-down) then knows the new key before the first token it
 * signs. When its time comes, the key before is retired and stays
 * published until its tokens have expired. Two instances making a key at
 * once each store one; both are published, and the newest signs.
 */
async function currentSigningKey(storage: KeyStorage, now: number): Promise<SigningKeyRecord> {
  const { signing, next } = keysOf(await storage.providerSigningKeys.published(now), now);
  const [current, ...replaced] = signing;
  if (current === undefined) return rotateSigningKey(storage, now);
  if (replaced.length > 0) {
    // Its time came: the keys before it stop signing then.
    await storage.providerSigningKeys.retireAllBut(
      current.kid,
      current.createdAt,
      current.createdAt + retiredKeyPublishedMs,
      { signingAt: now },
    );
  }
  const due = current.createdAt + signingKeyRotationMs;
  if (next === undefined && now >= due - nextKeyLeadMs) {
    // Published for the whole lead, even when the gateway was idle until after `due`.
    await makeKey(storage, Math.max(due, now + nextKeyLeadMs));
  }
  return current;
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

/**
 * The JWK Set to publish: the public keys of the key signing, the next key
 * (signing later), and those retired whose tokens may not have expired.
 */
export async function publishedKeySet(
  storage: KeyStorage,
  now: number,
): Promise<{ keys: Readonly<Record<string, JsonValue>>[] }> {
  // Made here if none is yet, so a relying party that reads the keys first finds one.
  await currentSigningKey(storage, now);
  const keys = await storage.providerSigningKeys.published(now);
  return { keys: keys.map((key) => key.publicJwk) };
}
