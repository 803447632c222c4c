import type { EntryKind, EntryKindId } from './entry-kind.js';
import { extensionKind } from './extension.js';
import { ldapKind } from './ldap.js';
import { oauth2Kind } from './oauth2.js';
import { samlKind } from './saml.js';

/**
 * Every kind of entry the console knows, by the `type` the admin API gives
 * it: a kind the API adds fails the type check until its module is listed
 * here. The order is the form's (the Type field's choices).
 */
const kinds: Readonly<Record<EntryKindId, EntryKind>> = {
  oauth2: oauth2Kind,
  extension: extensionKind,
  ldap: ldapKind,
  saml: samlKind,
};

export const entryKinds: readonly EntryKind[] = Object.values(kinds);

/**
 * The kind of a new entry, and of one filled from a preset: every preset is
 * an OAuth2 entry (src/foundation/presets/).
 */
export const defaultEntryKind: EntryKind = oauth2Kind;

/** The kind of a stored entry or of the form's draft. */
export function entryKindOf(entry: { readonly type: EntryKindId }): EntryKind {
  return kinds[entry.type];
}
