import type { CompiledEntry, MappedUser } from '../../core/index.js';
import { scopedUserId } from '../../core/index.js';
import type { EntryStore, UserStore } from '../../foundation/storage/types.js';
import { decideProvisioning } from './provisioning-decision.js';
import { namespaceOwner } from './reserved-user-id.js';

/** What provisioning would have done with the mapped user; nothing is written. */
export interface ProvisioningPlan {
  readonly action: 'create' | 'update' | 'sign_in' | 'refuse';
  readonly userId: string;
  /** For a refusal: account_conflict, user_id_reserved, user_disabled or signup_not_allowed. */
  readonly code?: string;
  readonly message: string;
}

/**
 * What provisionUser (src/features/sign-in/provision-user.ts) would do with this
 * user: the same decision, read from the user table without writing to it.
 */
export async function planProvisioning(
  stores: { users: Pick<UserStore, 'findByUserId'>; entries: Pick<EntryStore, 'get'> },
  entry: CompiledEntry,
  mapped: MappedUser,
): Promise<ProvisioningPlan> {
  const userId = scopedUserId(entry.provisioning.userIdScope, entry.id, mapped.userId);
  const reservedBy = await namespaceOwner(stores.entries, entry, mapped.userId);
  return decideProvisioning(entry, mapped, await stores.users.findByUserId(userId), reservedBy);
}
