import type { CompiledEntry, MappedUser } from '../core/index.js';
import { scopedUserId } from '../core/index.js';
import type { UserStore } from '../storage/types.js';
import type { ProvisioningPlan } from './test-trace.js';

/**
 * What provisionUser (src/sign-in/provision-user.ts) would do with this
 * user, read from the user table without writing to it: the same checks in
 * the same order, under the entry's policy.
 */
export async function planProvisioning(
  users: Pick<UserStore, 'findByUserId'>,
  entry: CompiledEntry,
  mapped: MappedUser,
): Promise<ProvisioningPlan> {
  const userId = scopedUserId(entry.provisioning.userIdScope, entry.id, mapped.userId);
  const refuse = (
    code: 'signup_not_allowed' | 'account_conflict' | 'user_disabled',
    message: string,
  ): ProvisioningPlan => ({ action: 'refuse', userId, code, message });
  if (mapped.enabled === false) {
    return refuse('user_disabled', 'the user-info response says the user is disabled');
  }
  const user = await users.findByUserId(userId);
  if (user === undefined) {
    return entry.provisioning.createUsers
      ? { action: 'create', userId, message: `a new user ${userId} would be created` }
      : refuse(
          'signup_not_allowed',
          `user ${userId} does not exist and entry ${entry.id} does not create users`,
        );
  }
  if (user.sourceEntryId !== entry.id) {
    const localAdmin = user.sourceEntryId === null && user.isAdmin;
    if (localAdmin || !entry.provisioning.adoptExistingUsers) {
      const from = user.sourceEntryId === null ? 'a local account' : `entry ${user.sourceEntryId}`;
      return refuse('account_conflict', `user ${userId} exists from ${from}`);
    }
  }
  if (!user.enabled) return refuse('user_disabled', `user ${userId} is disabled`);
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
