import type { ActiveSession } from '../sessions/session-service.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import type { OidcClientRecord } from './storage/types.js';

/**
 * Whether the client accepts this gateway sign-in: its entry (a local
 * account has none, so a client that lists entries refuses it), and its
 * user, listed by userId or in a listed group. Empty lists accept all.
 */
export function clientAccepts(client: OidcClientRecord, { session, user }: ActiveSession): boolean {
  return clientAcceptsUser(client, session.entryId, user);
}

/**
 * As clientAccepts, for the entry a grant was signed in with: read again at
 * every code exchange, refresh and userinfo call, so a client's rules
 * changed reach the grants made before.
 */
export function clientAcceptsUser(
  client: OidcClientRecord,
  entryId: string | null,
  user: UserRecord,
): boolean {
  if (client.allowedEntries.length > 0) {
    if (entryId === null || !client.allowedEntries.includes(entryId)) return false;
  }
  if (client.allowedUsers.length === 0 && client.allowedGroups.length === 0) return true;
  return (
    client.allowedUsers.includes(user.userId) ||
    user.groups.some((group) => client.allowedGroups.includes(group))
  );
}
