import type { ActiveSession } from '../sessions/session-service.js';
import type { OidcClientRecord } from '../../foundation/storage/types.js';

/**
 * Whether the client accepts this gateway sign-in: its entry (a local
 * account has none, so a client that lists entries refuses it), and its
 * user, listed by userId or in a listed group. Empty lists accept all.
 */
export function clientAccepts(client: OidcClientRecord, { session, user }: ActiveSession): boolean {
  if (client.allowedEntries.length > 0) {
    if (session.entryId === null || !client.allowedEntries.includes(session.entryId)) return false;
  }
  if (client.allowedUsers.length === 0 && client.allowedGroups.length === 0) return true;
  return (
    client.allowedUsers.includes(user.userId) ||
    user.groups.some((group) => client.allowedGroups.includes(group))
  );
}
