import { retiredKeyPublishedMs } from '../features/openid-provider/lifetimes.js';
import { rotateSigningKey as replaceSigningKey } from '../features/openid-provider/signing-keys.js';
import { recordCliChange } from './cli-audit.js';
import type { CommandContext } from './token-commands.js';

/**
 * `ssogate oidc rotate-key [--revoke]`: the OpenID Provider signs with
 * another key from now on, on every instance (each reads the signing key
 * from storage at each signature): the next key if one is published
 * already, else a new one. The keys it replaces stay published at
 * /_sso/oidc/jwks until the tokens they signed have expired, so no relying
 * party refuses a token issued before; with --revoke (a private key may
 * have been seen), a new key, and the others are taken out of the key set
 * at once (features/openid-provider/signing-keys.ts).
 */
export async function rotateSigningKey(
  context: CommandContext,
  { revoke = false }: { readonly revoke?: boolean } = {},
): Promise<void> {
  const now = context.clock();
  const before = (await context.storage.providerSigningKeys.published(now)).filter(
    (key) => key.retiredAt === null,
  );
  const replaced = before.filter((key) => key.createdAt <= now).map((key) => key.kid);
  const key = await replaceSigningKey(context.storage, now, { revoke });
  const promoted = before.some((next) => next.kid === key.kid);
  const dropped = before.map((old) => old.kid).filter((kid) => kid !== key.kid);
  const publishedUntil = new Date(now + retiredKeyPublishedMs).toISOString();
  await recordCliChange(context, now, 'key_change', null, {
    action: revoke ? 'revoke' : 'rotate',
    kid: key.kid,
    retired: revoke ? dropped : replaced,
    ...(revoke ? { unpublished: true } : { publishedUntil }),
  });
  context.out(key.kid);
  const signs = promoted
    ? `The OpenID Provider signs with the next key ${key.kid}, published already`
    : `The OpenID Provider signs with the new key ${key.kid}`;
  if (revoke) {
    context.note(
      dropped.length === 0
        ? `${signs}; there was no other key.`
        : `${signs}; ${dropped.join(', ')} removed from the key set at once: the tokens they signed no longer verify.`,
    );
    return;
  }
  context.note(
    replaced.length === 0
      ? `${signs} (it had none).`
      : `${signs}; ${replaced.join(', ')} stays published until ${publishedUntil}.`,
  );
}
