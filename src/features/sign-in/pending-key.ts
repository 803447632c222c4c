import type { CompiledEntry } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';

/**
 * The key of a pending sign-in. Normally the hash of its state. An entry whose
 * server cannot echo a state has none in the callback, so its pending sign-in
 * is keyed by the entry and the browser-binding cookie instead: one pending
 * sign-in per browser and entry, still bound to the browser (docs/entries.md#entries-without-state).
 */
export function pendingKey(
  entry: CompiledEntry,
  state: string | undefined,
  bindingValue: string,
): string {
  return usesState(entry)
    ? stateKey(state ?? '')
    : sha256Base64url(`browser:${entry.id}:${bindingValue}`);
}

/** The key of a pending sign-in (or a test sign-in) found by its state. */
export function stateKey(state: string): string {
  return sha256Base64url(`state:${state}`);
}

export function usesState(entry: CompiledEntry): boolean {
  // The extension contract requires the state back as `state` (docs/extension.md).
  return entry.type === 'extension' || entry.authorize.placeholders.has('state');
}
