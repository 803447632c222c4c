import type { Gateway } from '../../foundation/http/gateway.js';
import type { SignInEndReason } from '../../foundation/storage/sign-in-ends.js';

/**
 * Ends every sign-in of a user or of an entry in storage, then raises their
 * end once (foundation/storage/sign-in-ends.ts), so what this instance holds
 * of them ends too. Resolves how many sessions ended.
 */
export async function endSignInsOf(
  gateway: Pick<Gateway, 'storage' | 'signInEnds'>,
  ended: { readonly userRowId: number } | { readonly entryId: string },
  reason: SignInEndReason,
): Promise<number> {
  const count =
    'userRowId' in ended
      ? await gateway.storage.sessions.deleteForUser(ended.userRowId)
      : await gateway.storage.sessions.deleteForEntry(ended.entryId);
  await gateway.signInEnds.raise({ ended, reason });
  return count;
}

/**
 * Ends the sessions the entry's provider logged out (its back- or
 * front-channel logout: backchannel-logout.ts, frontchannel-logout.ts),
 * with what the provider's sign-in kept, each raised as `provider_logout`.
 */
export async function endProviderSessions(
  gateway: Pick<Gateway, 'storage' | 'signInEnds'>,
  hashes: readonly string[],
): Promise<void> {
  for (const hash of hashes) {
    await gateway.storage.sessions.delete(hash);
    await gateway.storage.upstreamSessions.delete(hash);
    await gateway.signInEnds.raise({ ended: { signInHash: hash }, reason: 'provider_logout' });
  }
}
