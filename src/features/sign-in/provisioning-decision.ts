import type { CompiledEntry, MappedUser } from '../../core/index.js';
import { scopedUserId } from '../../core/index.js';
import type { UserRecord } from '../../foundation/storage/types.js';

export type ProvisioningRefusal =
  'signup_not_allowed' | 'account_conflict' | 'user_disabled' | 'user_id_reserved';

/** What a sign-in does with its user: the one answer both the sign-in and the test sign-in give. */
type ProvisioningDecision =
  | {
      readonly action: 'create' | 'update' | 'sign_in';
      readonly userId: string;
      readonly message: string;
    }
  | {
      readonly action: 'refuse';
      readonly userId: string;
      readonly code: ProvisioningRefusal;
      readonly message: string;
    };

/**
 * The entry's provisioning policy applied to the mapped user and the row
 * found under its user id (undefined when there is none), in the order the
 * checks are made (docs/design.md#users-and-provisioning): a user the server
 * says is disabled, a user that does not exist, a row from elsewhere (a local
 * administrator is never handed to a third-party server), a row the
 * administrator disabled. Before all of these, a global entry's user id in
 * the namespace of entry `reservedBy` (reserved-user-id.ts) is refused,
 * whether or not a row exists. Reads and writes nothing.
 */
export function decideProvisioning(
  entry: Pick<CompiledEntry, 'id' | 'provisioning'>,
  mapped: Pick<MappedUser, 'userId' | 'enabled'>,
  row: Pick<UserRecord, 'sourceEntryId' | 'isAdmin' | 'enabled'> | undefined,
  reservedBy: string | undefined,
): ProvisioningDecision {
  const userId = scopedUserId(entry.provisioning.userIdScope, entry.id, mapped.userId);
  const refuse = (code: ProvisioningRefusal, message: string): ProvisioningDecision => ({
    action: 'refuse',
    userId,
    code,
    message,
  });
  if (reservedBy !== undefined) {
    return refuse(
      'user_id_reserved',
      `user id ${userId} has the form ${reservedBy}:…, reserved for the users of entry ${reservedBy}`,
    );
  }
  // The server may say the user is disabled; that refuses this sign-in but
  // is not written as the administrator's lock.
  if (mapped.enabled === false) {
    return refuse('user_disabled', 'the user-info response says the user is disabled');
  }
  if (row === undefined) {
    return entry.provisioning.createUsers
      ? { action: 'create', userId, message: `a new user ${userId} would be created` }
      : refuse(
          'signup_not_allowed',
          `user ${userId} does not exist and entry ${entry.id} does not create users`,
        );
  }
  if (row.sourceEntryId !== entry.id) {
    const localAdmin = row.sourceEntryId === null && row.isAdmin;
    if (localAdmin || !entry.provisioning.adoptExistingUsers) {
      const from = row.sourceEntryId === null ? 'a local account' : `entry ${row.sourceEntryId}`;
      return refuse('account_conflict', `user ${userId} exists from ${from}`);
    }
  }
  // A sign-in never lifts an administrator's lock.
  if (!row.enabled) return refuse('user_disabled', `user ${userId} is disabled`);
  return entry.provisioning.updateOnSignIn
    ? {
        action: 'update',
        userId,
        message: `user ${userId} exists; its mapped columns would be updated`,
      }
    : {
        action: 'sign_in',
        userId,
        message: `user ${userId} exists and would be signed in unchanged`,
      };
}
