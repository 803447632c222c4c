import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { SignInSource } from './sources/sign-in-source.js';

/**
 * The key of a pending sign-in. Normally the hash of the value its source's
 * callback carries back (the state). A source whose server cannot echo one
 * has none in the callback (`callback.correlationField` undefined), so its
 * pending sign-in is keyed by the entry and the browser-binding cookie
 * instead: one pending sign-in per browser and entry, still bound to the
 * browser (docs/entries.md#entries-without-state).
 */
export function pendingKey(
  entryId: string,
  source: SignInSource,
  correlation: string | undefined,
  bindingValue: string,
): string {
  return source.callback.correlationField === undefined
    ? sha256Base64url(`browser:${entryId}:${bindingValue}`)
    : stateKey(correlation ?? '');
}

/** The key of a pending sign-in (or a test sign-in) found by its state. */
export function stateKey(state: string): string {
  return sha256Base64url(`state:${state}`);
}
