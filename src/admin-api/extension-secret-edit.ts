import type { EntryInput } from '../core/index.js';
import type { SecretChange } from './entry-changes.js';

/**
 * The extensionSecret is write-only like the appsecret (SPEC 2): absent or
 * blank in an update keeps the stored one, null clears it. The store writes
 * the secret the input holds, so keeping it means passing the stored one on.
 */
export function keptExtensionSecret(
  body: Readonly<Record<string, unknown>>,
  stored: EntryInput,
): Record<string, unknown> {
  const { extensionSecret, ...rest } = body;
  if (extensionSecret === null) return rest;
  if (extensionSecret === undefined || extensionSecret === '') {
    return stored.extensionSecret === undefined
      ? rest
      : { ...rest, extensionSecret: stored.extensionSecret };
  }
  return { ...rest, extensionSecret };
}

/** What a write did to the extensionSecret, for the audit log (entry-changes.ts). */
export function extensionSecretChange(body: Readonly<Record<string, unknown>>): SecretChange {
  const { extensionSecret } = body;
  if (extensionSecret === null) return 'clear';
  return extensionSecret === undefined || extensionSecret === '' ? 'keep' : 'set';
}
