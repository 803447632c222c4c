import type { SsogateError } from '../errors/ssogate-error.js';
import type { CompiledEntry, ProvisioningPolicy } from './compiled-entry.js';
import { defaultProvisioning, defaultTimeoutMs } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import type { EntryInput } from './entry-input.js';

/*
 * What the validation of every type of entry shares (validate-entry.ts, and
 * validate-saml-entry.ts for entries of type saml): its result, the fields
 * every compiled entry has, and the checks of fields together. A module of
 * its own, so that validate-entry.ts, which hands saml entries on, and
 * validate-saml-entry.ts do not import each other.
 */

export type EntryValidation =
  | { readonly ok: true; readonly entry: CompiledEntry; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly SsogateError[] };

export function commonFields(entry: EntryInput) {
  return {
    id: entry.id,
    name: entry.name,
    enabled: entry.enabled,
    isDefault: entry.isDefault ?? false,
    appid: entry.appid,
    appsecret: entry.appsecret,
    timeoutMs: entry.timeoutMs ?? defaultTimeoutMs,
    responseMode: entry.responseMode ?? 'query',
    provisioning: provisioningPolicy(entry.provisioning),
    input: entry,
  };
}

/** Fields that are valid alone but not together. */
export function checkCombinations(entry: EntryInput, problems: ProblemList): void {
  if (entry.isDefault === true && !entry.enabled) {
    problems.field('isDefault', 'a disabled entry cannot be the default');
  }
  // Adopting means taking over a user some other entry (or a local account)
  // made; an entry whose users live in its own namespace has none to take.
  if (
    entry.provisioning?.userIdScope === 'entry' &&
    entry.provisioning.adoptExistingUsers === true
  ) {
    problems.field(
      'provisioning.adoptExistingUsers',
      'cannot be true when userIdScope is "entry": such an entry only signs in its own users',
    );
  }
}

function provisioningPolicy(input: EntryInput['provisioning']): ProvisioningPolicy {
  return {
    createUsers: input?.createUsers ?? defaultProvisioning.createUsers,
    updateOnSignIn: input?.updateOnSignIn ?? defaultProvisioning.updateOnSignIn,
    adoptExistingUsers: input?.adoptExistingUsers ?? defaultProvisioning.adoptExistingUsers,
    userIdScope: input?.userIdScope ?? defaultProvisioning.userIdScope,
  };
}
