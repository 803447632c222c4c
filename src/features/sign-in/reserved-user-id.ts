import type { CompiledEntry } from '../../core/index.js';
import { entryIdPattern } from '../../core/index.js';
import type { EntryStore } from '../../foundation/storage/types.js';

/**
 * The entry whose namespace a user id from a global entry falls in, or
 * undefined. An entry with userIdScope "entry" keeps its users as
 * `<entry id>:<userId>` (core/user/user-id-scope.ts) in the one users table;
 * a global entry's server answering `oidc4:zed` first would take that row,
 * leaving the real `zed` of entry `oidc4` refused and the access rules and
 * identity headers naming the other server's user. So the form
 * `<entry id>:…` is reserved for the id of every existing entry, whatever
 * its scope today (a scope can be changed later). Read from storage, not
 * from the compiled entries, which leave out an entry that does not compile
 * or whose provider cannot be reached for the moment. Only an id whose text
 * before its first `:` could be an entry id is looked up.
 */
export async function namespaceOwner(
  entries: Pick<EntryStore, 'get'>,
  entry: Pick<CompiledEntry, 'provisioning'>,
  mappedUserId: string,
): Promise<string | undefined> {
  if (entry.provisioning.userIdScope !== 'global') return undefined;
  const colon = mappedUserId.indexOf(':');
  if (colon === -1) return undefined;
  const prefix = mappedUserId.slice(0, colon);
  if (!entryIdPattern.test(prefix)) return undefined;
  return (await entries.get(prefix)) === undefined ? undefined : prefix;
}
