import { retiredKeyPublishedMs } from '../features/openid-provider/lifetimes.js';
import { rotateSigningKey as replaceSigningKey } from '../features/openid-provider/signing-keys.js';
import { recordCliChange } from './cli-audit.js';
import type { CommandContext } from './token-commands.js';

/**
 * `ssogate oidc rotate-key`: the OpenID Provider signs with a new key from
 * now on, on every instance (each reads the signing key from storage at each
 * signature). The keys it replaces stay published at /_sso/oidc/jwks until
 * the tokens they signed have expired, so no relying party refuses a token
 * issued before (features/openid-provider/signing-keys.ts).
 */
export async function rotateSigningKey(context: CommandContext): Promise<void> {
  const now = context.clock();
  const replaced = (await context.storage.oidcSigningKeys.published(now))
    .filter((key) => key.retiredAt === null)
    .map((key) => key.kid);
  const key = await replaceSigningKey(context.storage, now);
  const publishedUntil = new Date(now + retiredKeyPublishedMs).toISOString();
  await recordCliChange(context, now, 'key_change', null, {
    action: 'rotate',
    kid: key.kid,
    retired: replaced,
    publishedUntil,
  });
  context.out(key.kid);
  context.note(
    replaced.length === 0
      ? `The OpenID Provider signs with the new key ${key.kid} (it had none).`
      : `The OpenID Provider signs with the new key ${key.kid}; ` +
          `${replaced.join(', ')} stays published until ${publishedUntil}.`,
  );
}
