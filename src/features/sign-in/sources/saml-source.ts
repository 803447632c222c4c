import type { CompiledSamlEntry } from '../../../core/index.js';
import { SignInError } from '../../../core/index.js';
import { publicUrlOfCallback, samlEndpoints } from '../../saml/saml-endpoints.js';
import { samlAuthnRequest } from '../../saml/saml-request.js';
import { spLogoutDestination, spLogoutRequest } from '../../saml/sp-logout.js';
import { readSamlAnswer, readSamlSignIn } from '../../saml/saml-response.js';
import { refuseDisabled } from './enabled-entry.js';
import type { SignInSource, SourceKind } from './sign-in-source.js';

export const samlKind: SourceKind = {
  kind: 'saml',
  entryType: 'saml',
  label: 'SAML 2.0',
  sections: ['samlIdentityProvider', 'users'],
  // A SAML Response is signed XML the identity provider posts; nothing to
  // paste. A test sign-in tries it (docs/admin-api.md#test-sign-in).
  testPanel: false,
};

/**
 * An entry of type saml (docs/entries.md#saml-20-identity-providers): the
 * gateway as a SAML 2.0 service provider, SP-initiated Web Browser SSO
 * (src/features/saml/). The AuthnRequest goes by HTTP-Redirect with the
 * state as RelayState; the Response is posted to the callback (HTTP-POST),
 * which finds the pending sign-in by that RelayState. Its sign-out ends the
 * gateway's session, then, when the identity provider's metadata has a
 * SingleLogoutService, sends a LogoutRequest there (sp-logout.ts); the
 * identity provider's own LogoutRequests end sessions at logout-route.ts.
 * It re-checks nothing.
 */
export function samlSource(entry: CompiledSamlEntry): SignInSource {
  const read: SignInSource['readAnswer'] = async (deps, fields, pending) => {
    if (!entry.enabled) {
      throw new SignInError('entry_disabled', `entry ${entry.id} is disabled`, {
        entryId: entry.id,
      });
    }
    const endpoints = samlEndpoints(publicUrlOfCallback(pending.redirectUri, entry.id), entry);
    const { user, signIn } = await readSamlSignIn(entry, fields, pending, {
      endpoints,
      clock: deps.clock,
      documents: deps.documents,
    });
    return { mapped: user, oidc: undefined, ...(signIn === undefined ? {} : { saml: signIn }) };
  };
  return {
    kind: samlKind,
    authorizationRequest: (deps, options = {}) =>
      samlAuthnRequest(entry, {
        publicUrl: deps.publicUrl,
        random: deps.random,
        documents: deps.documents,
        ...(options.stateBytes === undefined ? {} : { stateBytes: options.stateBytes }),
      }),
    callback: {
      // SAML Bindings §3.5: the HTTP-POST binding, the only one the ACS takes.
      methods: ['POST'],
      // SAML Bindings §3.5.3: the RelayState the request carried comes back unchanged.
      correlationField: 'RelayState',
      // A SAML Response carries no code; a stray `code` field is checked like any.
      codeField: 'code',
    },
    readAnswer: read,
    groupMapping:
      entry.saml.attributes.groups === undefined
        ? undefined
        : { adminGroups: entry.groupMapping?.adminGroups },
    // Read from the identity provider's metadata when asked, not at each sourceOf.
    signOutDestination: ({ documents }) => spLogoutDestination(entry, documents),
    signOutAtSource: (options) => spLogoutRequest(entry, options),
    logoutNotifications: undefined,
    revalidate: () => Promise.resolve(true),
    // The entry's private key for encrypted assertions: never shown, should a message ever hold it.
    secrets: entry.saml.decryption === undefined ? [] : [entry.saml.decryption.privateKey],
    // The Response's checks one by one, each value masked as the trace masks
    // any (trace-recorder.ts); the assertion itself is never shown.
    async readTrialAnswer(deps, fields, pending, trace) {
      trace.begin('saml response');
      refuseDisabled(entry);
      return readSamlAnswer(entry, fields, pending, {
        endpoints: samlEndpoints(publicUrlOfCallback(pending.redirectUri, entry.id), entry),
        clock: deps.clock,
        documents: deps.documents,
        checked: (label, value) => {
          trace.result({ label, outcome: 'ok', value });
        },
      });
    },
    oauth2Steps: undefined,
    doctorChecks: [],
  };
}
