import type { CompiledLdapEntry } from '../../../core/index.js';
import { SignInError, SsogateError, mapDirectoryUser, randomToken } from '../../../core/index.js';
import { signInWithDirectory } from '../../ldap-directory/directory-sign-in.js';
import { typedCredentials } from '../../ldap-directory/password-form-answer.js';
import type { SignInSource, SourceKind } from './sign-in-source.js';

export const ldapKind: SourceKind = {
  kind: 'ldap',
  entryType: 'ldap',
  label: 'LDAP directory',
  sections: ['ldapDirectory', 'users'],
  // The directory answers binds, not documents: nothing to paste.
  testPanel: false,
};

/** The gateway's own password form for an LDAP entry (src/features/sign-in/ldap-password-form.ts). */
export function ldapFormPath(entryId: string): string {
  return `/_sso/ldap/${encodeURIComponent(entryId)}`;
}

/**
 * An entry of type ldap (docs/entries.md#ldap-directories): the start sends
 * the browser to the gateway's own password form with the state; the form's
 * post is the callback, whose password the directory checks
 * (src/features/ldap-directory/directory-sign-in.ts). Its sign-out ends the
 * gateway's session only, and it re-checks nothing.
 */
export function ldapSource(entry: CompiledLdapEntry): SignInSource {
  return {
    kind: ldapKind,
    authorizationRequest(deps, options = {}) {
      // Only a test sign-in asks for a state of its own length
      // (src/features/trial-sign-in/trial-state.ts): it would open a
      // password form whose post finds no pending sign-in, so it is refused
      // before it starts.
      if (options.stateBytes !== undefined) return Promise.reject(trialRefused());
      const state = randomToken(deps.random);
      const form = new URL(ldapFormPath(entry.id), deps.publicUrl);
      form.searchParams.set('state', state);
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
    async readAnswer(_deps, fields, pending) {
      if (!entry.enabled) {
        throw new SignInError('entry_disabled', `entry ${entry.id} is disabled`, {
          entryId: entry.id,
        });
      }
      const credentials = typedCredentials(fields);
      if (credentials === undefined) {
        throw new SignInError(
          'ldap_sign_in_failed',
          'an LDAP entry signs in only through its password form',
          { entryId: entry.id },
        );
      }
      credentials.returnTo = pending.returnTo;
      const answer = await signInWithDirectory(
        { policy: credentials.policy, timeoutMs: entry.timeoutMs, entryId: entry.id },
        entry.ldap,
        credentials.username,
        credentials.password,
      );
      try {
        return {
          mapped: mapDirectoryUser(entry.ldap, entry.groupMapping, answer),
          oidc: undefined,
        };
      } catch (error) {
        throw new SignInError(
          'userinfo_parse_failed',
          `the directory's answer could not be read into a user: ${error instanceof Error ? error.message : String(error)}`,
          { entryId: entry.id, cause: error },
        );
      }
    },
    groupMapping: entry.groupMapping,
    signOutDestination: undefined,
    signOutAtSource: () => undefined,
    logoutNotifications: undefined,
    revalidate: () => Promise.resolve(true),
    secrets: entry.ldap.lookup.kind === 'search' ? [entry.ldap.lookup.bindPassword] : [],
    readTrialAnswer: () => Promise.reject(trialRefused()),
    oauth2Steps: undefined,
    doctorChecks: [],
  };
}

function trialRefused(): SsogateError {
  return new SsogateError(
    'test_sign_in_unsupported',
    'an LDAP entry is tried by signing in with its password form; a test sign-in types no password',
  );
}
