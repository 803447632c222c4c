import type { CompiledEntry, MappedUser } from '../core/index.js';
import { SignInError, scopedUserId } from '../core/index.js';
import type { UserAttributes, UserRecord, UserStore } from '../storage/types.js';

/**
 * Turns the mapped user into a row under the entry's policy (docs/design.md#users-and-provisioning):
 * create [yes], update at every sign-in [yes], adopt a user from elsewhere
 * [no]. A local administrator is never handed to a third-party server, and a
 * sign-in never lifts an administrator's lock. An entry with userIdScope
 * "entry" finds and makes its users under `<entry id>:<userId>`.
 */
export async function provisionUser(
  users: UserStore,
  entry: CompiledEntry,
  mapped: MappedUser,
  now: number,
): Promise<UserRecord> {
  const userId = scopedUserId(entry.provisioning.userIdScope, entry.id, mapped.userId);
  const fail = (
    code: 'signup_not_allowed' | 'account_conflict' | 'user_disabled',
    message: string,
  ) => new SignInError(code, message, { entryId: entry.id, userId });

  // The server may say the user is disabled; that refuses this sign-in but
  // is not written as the administrator's lock.
  if (mapped.enabled === false)
    throw fail('user_disabled', 'the user-info response says the user is disabled');

  let user = await users.findByUserId(userId);
  let created = false;
  if (user === undefined) {
    if (!entry.provisioning.createUsers) {
      throw fail(
        'signup_not_allowed',
        `user ${userId} does not exist and entry ${entry.id} does not create users`,
      );
    }
    // Atomic: of two first sign-ins racing here, both get the one row.
    ({ user, created } = await users.insertIfAbsent(
      { userId, sourceEntryId: entry.id, ...attributesOf(mapped), ...rolesOf(entry, mapped) },
      now,
    ));
  }

  if (user.sourceEntryId !== entry.id) {
    const localAdmin = user.sourceEntryId === null && user.isAdmin;
    if (localAdmin || !entry.provisioning.adoptExistingUsers) {
      throw fail(
        'account_conflict',
        `user ${userId} exists from ${user.sourceEntryId === null ? 'a local account' : `entry ${user.sourceEntryId}`}`,
      );
    }
  }
  // Written only when the server said something new: a row rewritten with
  // its own values costs a sign-in a statement and changes nothing.
  const attributes = attributesOf(mapped);
  if (!created && entry.provisioning.updateOnSignIn && !holdsAlready(user, attributes)) {
    user = await users.updateAttributes(user.id, attributes, now);
  }
  // Groups and the administrator flag follow the server at every sign-in,
  // so that a group taken away there takes its access away here.
  const roles = rolesOf(entry, mapped);
  if (!created && Object.keys(roles).length > 0 && !holdsAlready(user, roles)) {
    user = await users.updateAttributes(user.id, roles, now);
  }
  if (!user.enabled) throw fail('user_disabled', `user ${userId} is disabled`);
  return user;
}

/** What the entry's groupMapping says: the groups, and the flag when adminGroups decide it. */
function rolesOf(
  entry: CompiledEntry,
  mapped: MappedUser,
): Pick<UserAttributes, 'groups' | 'isAdmin'> {
  const groups = mapped.groups;
  if (entry.type !== 'oauth2' || entry.groupMapping === undefined || groups === undefined)
    return {};
  const adminGroups = entry.groupMapping.adminGroups;
  return adminGroups === undefined
    ? { groups }
    : { groups, isAdmin: groups.some((group) => adminGroups.has(group)) };
}

function attributesOf(mapped: MappedUser): UserAttributes {
  const { userName, email, mobile, department, extra } = mapped;
  return {
    ...(userName === undefined ? {} : { userName }),
    ...(email === undefined ? {} : { email }),
    ...(mobile === undefined ? {} : { mobile }),
    ...(department === undefined ? {} : { department }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

/** Whether the row already holds every attribute given (the way the user store writes them). */
function holdsAlready(user: UserRecord, attributes: UserAttributes): boolean {
  const same = <T>(given: T | undefined, held: T) => given === undefined || given === held;
  return (
    same(attributes.userName, user.userName) &&
    same(attributes.email, user.email) &&
    same(attributes.mobile, user.mobile) &&
    same(attributes.department, user.department) &&
    same(attributes.enabled, user.enabled) &&
    same(attributes.isAdmin, user.isAdmin) &&
    (attributes.extra === undefined ||
      JSON.stringify(attributes.extra) === JSON.stringify(user.extra)) &&
    (attributes.groups === undefined ||
      JSON.stringify(attributes.groups) === JSON.stringify(user.groups))
  );
}
