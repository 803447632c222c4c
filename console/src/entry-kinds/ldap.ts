import { withoutUndefined } from '../entry-form/body-parts.js';
import { ldapBody } from '../entry-form/ldap-draft.js';
import type { EntryBody } from '../types.js';
import type { EntryKind } from './entry-kind.js';

/**
 * An LDAP or Active Directory entry (docs/entries.md#ldap-directories): the
 * gateway shows its own password form and checks it against the directory,
 * searching as a service account whose password is the App secret.
 */
export const ldapKind: EntryKind = {
  id: 'ldap',
  label: (words) => words.entryForm.general.ldap,
  badge: (words) => words.entries.ldap,
  sections: ['ldapDirectory', 'users'],
  // A directory answers binds; there is no answer to paste.
  samplesTest: false,
  // A test sign-in types no password: the entry is tried by signing in with it.
  trialCredentials: () => [],
  blamedField: () => undefined,
  body: (draft, common) =>
    withoutUndefined<EntryBody>({
      type: 'ldap',
      ...common,
      ...ldapBody(draft.ldap),
    }),
};
