import type { EntryInput } from '../core/index.js';
import { secretChange, withSecretAfter } from '../core/index.js';
import { invalidField } from './api-failure.js';

/**
 * The extensionSecret is write-only like the appsecret (docs/design.md#the-entry),
 * under the same rule (secretChange, src/core/entry/secret-edit.ts). The store
 * writes the secret the input holds, so keeping it means passing the stored one on.
 *
 * A kept secret stays with the service it was made for: whoever moves the
 * entry to another extension origin must give the secret again, or the
 * gateway would sign calls (and hand the entry's appsecret) to a host the
 * secret's owner never agreed to.
 */
export function keptExtensionSecret(
  body: Readonly<Record<string, unknown>>,
  stored: EntryInput,
): Record<string, unknown> {
  if (
    secretChange(body.extensionSecret) === 'keep' &&
    stored.extensionSecret !== undefined &&
    !sameExtensionOrigin(body.extensionUrl, stored.extensionUrl)
  ) {
    throw invalidField(
      'extensionSecret',
      'must be given again when extensionUrl moves to another origin',
    );
  }
  return withSecretAfter(body, 'extensionSecret', stored.extensionSecret);
}

/** Whether a sent extensionUrl is on the stored one's origin (absent: unchanged). */
export function sameExtensionOrigin(sent: unknown, stored: string | undefined): boolean {
  if (sent === undefined || sent === '' || sent === stored) return true;
  if (typeof sent !== 'string' || stored === undefined) return false;
  try {
    return new URL(sent).origin === new URL(stored).origin;
  } catch {
    return false;
  }
}
