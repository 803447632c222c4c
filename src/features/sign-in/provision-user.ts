import type { CompiledEntry, MappedUser } from '../../core/index.js';
import { SignInError, scopedUserId } from '../../core/index.js';
import type { UserAttributes, UserRecord, UserStore } from '../../foundation/storage/types.js';
import type { ProvisioningRefusal } from './provisioning-decision.js';
import { decideProvisioning } from './provisioning-decision.js';
import { sourceOf } from './sources/source-registry.js';

/**
 * Turns the mapped user into a row, its sign-in recorded at `now` (the
 * session's start need not write it again), under the entry's policy, as
 * decideProvisioning (src/features/sign-in/provisioning-decision.ts) decides: create
 * [yes], update at every sign-in [yes], adopt a user from elsewhere [no]. An
 * entry with userIdScope "entry" finds and makes its users under
 * `<entry id>:<userId>`; a global entry's id of that form is refused when
 * `reservedBy` names the entry it belongs to (reserved-user-id.ts).
 */
export async function provisionUser(
  users: UserStore,
  entry: CompiledEntry,
  mapped: MappedUser,
  now: number,
  reservedBy: string | undefined,
): Promise<UserRecord> {
  const userId = scopedUserId(entry.provisioning.userIdScope, entry.id, mapped.userId);
  // A user the server says is disabled, or an id reserved for another entry's
  // users, is refused before any row is read. The row is read with its sign-in
  // recorded, in one statement: the caller's transaction takes it back if
  // the sign-in is refused.
  let user =
    mapped.enabled === false || reservedBy !== undefined
      ? undefined
      : await users.findForSignIn(userId, now);
  let decision = decideProvisioning(entry, mapped, user, reservedBy);
  let created = false;
  if (decision.action === 'create') {
    // Atomic: of two first sign-ins racing here, both get the one row, and
    // the one that did not make it decides again on the row it got.
    ({ user, created } = await users.insertIfAbsent(
      { userId, sourceEntryId: entry.id, ...attributesOf(mapped), ...rolesOf(entry, mapped) },
      now,
    ));
    await users.recordSignIn(user.id, now);
    user = { ...user, lastSignInAt: now };
    if (!created) decision = decideProvisioning(entry, mapped, user, reservedBy);
  }
  const refused = (code: ProvisioningRefusal, message: string) =>
    new SignInError(code, message, { entryId: entry.id, userId });
  // A row refused only because the administrator disabled it is still
  // brought up to date below; every other refusal writes nothing.
  if (decision.action === 'refuse' && (user === undefined || decision.code !== 'user_disabled'))
    throw refused(decision.code, decision.message);
  if (user === undefined) throw new Error('a row is read or made for every decision but a refusal');

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
  if (decision.action === 'refuse') throw refused(decision.code, decision.message);
  return user;
}

/** What the entry's groupMapping says: the groups, and the flag when adminGroups decide it. */
function rolesOf(
  entry: CompiledEntry,
  mapped: MappedUser,
): Pick<UserAttributes, 'groups' | 'isAdmin'> {
  const groups = mapped.groups;
  const { groupMapping } = sourceOf(entry);
  if (groupMapping === undefined || groups === undefined) return {};
  const adminGroups = groupMapping.adminGroups;
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
