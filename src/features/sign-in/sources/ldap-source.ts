import type { Client } from 'ldapts';
import type { PoolsByKey } from '../../../foundation/outbound/connection-pool.js';
import type { CompiledLdapEntry, DirectoryAnswer, MappedUser } from '../../../core/index.js';
import { SignInError, mapDirectoryUser, randomToken } from '../../../core/index.js';
import type { DirectoryObserver } from '../../ldap-directory/directory-sign-in.js';
import { signInWithDirectory } from '../../ldap-directory/directory-sign-in.js';
import { typedCredentials } from '../../ldap-directory/password-form-answer.js';
import { refuseDisabled } from './enabled-entry.js';
import type { SignInSource, SourceKind } from './sign-in-source.js';

export const ldapKind: SourceKind = {
  kind: 'ldap',
  entryType: 'ldap',
  label: 'LDAP directory',
  sections: ['ldapDirectory', 'users'],
  // The directory answers binds, not documents: nothing to paste. A test
  // sign-in types a password into the form (docs/admin-api.md#test-sign-in).
  testPanel: false,
};

/**
 * The form's query parameter that marks an administrator's test sign-in:
 * the form says so. Only shown: whether a post is a test is decided by the
 * test sign-in its state belongs to (src/features/trial-sign-in/trial-callback.ts).
 */
export const trialFormMark = 'test';

/** The gateway's own password form for an LDAP entry (src/features/sign-in/ldap-password-form.ts). */
export function ldapFormPath(entryId: string): string {
  return `/_sso/ldap/${encodeURIComponent(entryId)}`;
}

/**
 * An entry of type ldap (docs/entries.md#ldap-directories): the start sends
 * the browser to the gateway's own password form with the state; the form's
 * post is the callback, whose password the directory checks
 * (src/features/ldap-directory/directory-sign-in.ts). Its sign-out ends the
 * gateway's session only, and it re-checks nothing. A test sign-in opens
 * the same form, marked as a test, and its post is traced, not signed in.
 */
export function ldapSource(entry: CompiledLdapEntry): SignInSource {
  return {
    kind: ldapKind,
    authorizationRequest(deps, options = {}) {
      const state = randomToken(deps.random, options.stateBytes);
      const form = new URL(ldapFormPath(entry.id), deps.publicUrl);
      form.searchParams.set('state', state);
      if (options.trial === true) form.searchParams.set(trialFormMark, '1');
      return Promise.resolve({
        url: form.href,
        state,
        redirectUri: new URL(ldapFormPath(entry.id), deps.publicUrl).href,
        codeVerifier: undefined,
      });
    },
    callback: {
      // The form posts to a route of its own, never to /_sso/callback/{id}.
      methods: [],
      correlationField: 'state',
      codeField: 'state',
    },
    async readAnswer(deps, fields, pending) {
      const answer = await directoryAnswer(entry, fields, pending, {
        ...(deps.directoryPools === undefined ? {} : { pools: deps.directoryPools }),
      });
      return { mapped: userOf(entry, answer), oidc: undefined };
    },
    groupMapping: entry.groupMapping,
    signOutDestination: () => undefined,
    signOutAtSource: () => undefined,
    logoutNotifications: undefined,
    revalidate: () => Promise.resolve(true),
    secrets: entry.ldap.lookup.kind === 'search' ? [entry.ldap.lookup.bindPassword] : [],
    // The same binds and searches, each recorded; the typed password masked.
    async readTrialAnswer(_deps, fields, pending, trace) {
      const password = typedCredentials(fields)?.password;
      if (password !== undefined && password !== '') trace.secret(password);
      const observe: DirectoryObserver = {
        begin: (operation) => {
          trace.begin(operation);
        },
        result: (label, value) => {
          trace.result({ label, outcome: 'ok', value });
        },
      };
      const answer = await directoryAnswer(entry, fields, pending, { observe });
      trace.begin('mapped user');
      const user = userOf(entry, answer);
      trace.result({ label: 'userId', outcome: 'ok', value: user.userId });
      return user;
    },
    oauth2Steps: undefined,
    doctorChecks: [],
  };
}

/** The directory's answer to the typed credentials, which only the password form's fields carry. */
async function directoryAnswer(
  entry: CompiledLdapEntry,
  fields: Readonly<Record<string, unknown>>,
  pending: { readonly returnTo: string },
  how: { readonly observe?: DirectoryObserver; readonly pools?: PoolsByKey<Client> },
): Promise<DirectoryAnswer> {
  refuseDisabled(entry);
  const credentials = typedCredentials(fields);
  if (credentials === undefined) {
    throw new SignInError(
      'ldap_sign_in_failed',
      'an LDAP entry signs in only through its password form',
      { entryId: entry.id },
    );
  }
  credentials.returnTo = pending.returnTo;
  return signInWithDirectory(
    {
      policy: credentials.policy,
      timeoutMs: entry.timeoutMs,
      entryId: entry.id,
      ...how,
    },
    entry.ldap,
    credentials.username,
    credentials.password,
  );
}

function userOf(entry: CompiledLdapEntry, answer: DirectoryAnswer): MappedUser {
  try {
    return mapDirectoryUser(entry.ldap, entry.groupMapping, answer);
  } catch (error) {
    throw new SignInError(
      'userinfo_parse_failed',
      `the directory's answer could not be read into a user: ${error instanceof Error ? error.message : String(error)}`,
      { entryId: entry.id, cause: error },
    );
  }
}
