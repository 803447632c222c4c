import { withoutUndefined } from '../entry-form/body-parts.js';
import { ldapBody } from '../entry-form/ldap-draft.js';
import type { EntryBody } from '../types.js';
import type { EntryKind, FailedStep } from './entry-kind.js';

/**
 * An LDAP or Active Directory entry (docs/entries.md#ldap-directories): the
 * gateway shows its own password form and checks it against the directory,
 * searching as a service account whose password is the App secret.
 */
/**
 * The field a failed step of a test sign-in against the directory blames
 * (the steps of src/features/ldap-directory/directory-sign-in.ts). A wrong
 * password blames none.
 */
function blamedField(step: FailedStep): string | undefined {
  switch (step.name) {
    case 'service bind':
      return step.error?.code === 'ldap_unavailable' ? 'ldap.url' : 'ldap.bindDn';
    case 'user search':
      return 'ldap.userFilter';
    case 'groups':
      return 'ldap.groupFilter';
    case 'mapped user':
      return 'ldap.userIdAttribute';
    default:
      return undefined;
  }
}

export const ldapKind: EntryKind = {
  id: 'ldap',
  label: (words) => words.entryForm.general.ldap,
  badge: (words) => words.entries.ldap,
  sections: ['ldapDirectory', 'users'],
  // A directory answers binds; there is no answer to paste.
  samplesTest: false,
  // A test sign-in opens the gateway's password form, marked as a test.
  trialSignIn: true,
  // The App secret is the service account's password, which the draft must hold.
  trialCredentials: () => ['appsecret'],
  blamedField,
  body: (draft, common) =>
    withoutUndefined<EntryBody>({
      type: 'ldap',
      ...common,
      ...ldapBody(draft.ldap),
    }),
};
