import { SignInError } from '../../../core/index.js';

/**
 * Refuses a sign-in with a disabled entry (`entry_disabled`), at its start
 * and again when its answer is read: the entry may be disabled in between.
 */
export function refuseDisabled(entry: { readonly id: string; readonly enabled: boolean }): void {
  if (!entry.enabled) {
    throw new SignInError('entry_disabled', `entry ${entry.id} is disabled`, {
      entryId: entry.id,
    });
  }
}
