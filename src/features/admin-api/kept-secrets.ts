import type { EntryInput } from '../../core/index.js';
import {
  entryCallOrigins,
  secretChange,
  sendsAppsecret,
  validateEntry,
  withSecretAfter,
} from '../../core/index.js';
import { invalidField } from './api-failure.js';

/**
 * An edit of a stored entry as the gateway must see it: `body` with the
 * entry's id and its write-only secrets (appsecret, extensionSecret:
 * docs/design.md#the-entry) as the write leaves them, under the one rule of
 * src/core/entry/secret-edit.ts. The store writes the secret the input
 * holds, so keeping it means passing the stored one on. Saving, live
 * validation, the test panel and a draft's test sign-in all read an edit
 * through this function, so they keep or refuse a secret alike.
 *
 * A kept secret stays with the servers it was given for: an edit that keeps
 * one while the entry would call an origin the stored entry does not call
 * must give the secret again, or the gateway would send it (the appsecret
 * to a token URL, the extensionSecret as the key of a signature) to a host
 * the secret's owner never agreed to. A SAML entry's appsecret (its
 * private key for encrypted assertions) is sent nowhere, so it is kept
 * whatever the entry calls.
 */
export function withKeptSecrets(
  body: Readonly<Record<string, unknown>>,
  stored: EntryInput,
): Record<string, unknown> {
  if (
    kept(body.extensionSecret, stored.extensionSecret) &&
    !sameExtensionOrigin(body.extensionUrl, stored.extensionUrl)
  ) {
    throw invalidField(
      'extensionSecret',
      'must be given again when extensionUrl moves to another origin',
    );
  }
  const edited = {
    ...withSecretAfter(
      withSecretAfter(body, 'extensionSecret', stored.extensionSecret),
      'appsecret',
      stored.appsecret,
    ),
    id: stored.id,
  };
  if (kept(body.appsecret, stored.appsecret) && sendsAppsecret(stored)) {
    const added = addedOrigins(edited, stored);
    if (added.length > 0) {
      throw invalidField(
        'appsecret',
        `must be given again when the entry calls another origin than the stored entry: ${added.join(', ')}`,
      );
    }
  }
  return edited;
}

/** Whether the edit keeps a stored secret without the secret being given. */
function kept(sent: unknown, stored: string | undefined): boolean {
  return secretChange(sent) === 'keep' && stored !== undefined;
}

/**
 * The origins the edited entry would call that the stored one does not. An
 * edit that does not validate calls nothing (validation refuses it next);
 * a stored entry that no longer compiles vouches for no origin.
 */
function addedOrigins(edited: Readonly<Record<string, unknown>>, stored: EntryInput): string[] {
  const after = validateEntry(edited);
  if (!after.ok) return [];
  const before = validateEntry(stored);
  const known = new Set(before.ok ? entryCallOrigins(before.entry) : []);
  return entryCallOrigins(after.entry).filter((origin) => !known.has(origin));
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
