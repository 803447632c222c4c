/**
 * Whose namespace a userId from an entry lives in (docs/entries.md).
 *
 * - `global`: the userId is the user, whatever entry signs them in; the same
 *   userId from a second entry is refused (account_conflict) unless that
 *   entry adopts users from elsewhere.
 * - `entry`: the entry's users are its own. They are stored, audited and
 *   sent to applications (X-Auth-Request-User) as `<entry id>:<userId>`. An
 *   entry id is a slug without `:`, so the first `:` always ends it, and the
 *   one users table (user_id is unique) keeps every user distinct.
 */
export const userIdScopes = ['global', 'entry'] as const;

export type UserIdScope = (typeof userIdScopes)[number];

/** The userId a user of `entryId` is stored and known under. */
export function scopedUserId(scope: UserIdScope, entryId: string, userId: string): string {
  return scope === 'entry' ? `${entryId}:${userId}` : userId;
}
