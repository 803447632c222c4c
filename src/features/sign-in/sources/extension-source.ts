import type { CompiledExtensionEntry } from '../../../core/index.js';
import {
  extensionAuthorizationRequest,
  extensionCallbackUser,
} from '../../extension/extension-flow.js';
import { callbackMethods } from './callback-fields.js';
import { refuseDisabled } from './enabled-entry.js';
import type { SignInSource, SourceKind } from './sign-in-source.js';

export const extensionKind: SourceKind = {
  kind: 'extension',
  entryType: 'extension',
  label: 'Extension service',
  sections: ['extensionService', 'users'],
  // The extension reads its server's answers itself; the gateway never sees them.
  testPanel: false,
};

/**
 * An entry of type extension (docs/extension.md): the gateway keeps the
 * flow, a service of the administrator's builds the authorization URL and
 * reads the callback (src/features/extension/extension-flow.ts). Its
 * sign-out ends the gateway's session only, and it re-checks nothing.
 */
export function extensionSource(entry: CompiledExtensionEntry): SignInSource {
  return {
    kind: extensionKind,
    authorizationRequest: (deps, options = {}) =>
      extensionAuthorizationRequest(deps, entry, deps.publicUrl, options.stateBytes),
    callback: {
      methods: callbackMethods(entry),
      // The extension contract requires the state back as `state` (docs/extension.md).
      correlationField: 'state',
      // Whatever the server calls its code, the extension reads it; a
      // parameter named `code` is an OAuth2 code and is checked as one.
      codeField: 'code',
    },
    async readAnswer(deps, fields, pending) {
      refuseDisabled(entry);
      const mapped = await deps.telemetry.step(entry.id, 'extension', () =>
        extensionCallbackUser(deps, entry, fields, pending.redirectUri),
      );
      return { mapped, oidc: undefined };
    },
    groupMapping: undefined,
    signOutDestination: () => undefined,
    signOutAtSource: () => undefined,
    logoutNotifications: undefined,
    revalidate: () => Promise.resolve(true),
    secrets: [entry.appsecret, entry.extension.secret].filter(
      (secret): secret is string => secret !== undefined,
    ),
    readTrialAnswer(deps, fields, pending, trace) {
      trace.begin('extension');
      return extensionCallbackUser(
        { send: deps.send, clock: deps.clock, random: deps.random },
        entry,
        fields,
        pending.redirectUri,
      );
    },
    oauth2Steps: undefined,
    doctorChecks: [],
  };
}
