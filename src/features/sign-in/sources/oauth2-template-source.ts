import type { CompiledOAuth2Entry } from '../../../core/index.js';
import {
  MASK,
  SignInError,
  buildAuthorizationRequest,
  buildLogoutRequest,
  excerpt,
  isSsogateError,
  isVisibleAscii,
  maskSecrets,
} from '../../../core/index.js';
import type { SourceSignOut } from '../../../foundation/http/source-sign-out.js';
import { revalidateSession } from '../../sessions/revalidate-session.js';
import { readSignedInUser } from '../oauth2-steps.js';
import { callbackMethods, single } from './callback-fields.js';
import { refuseDisabled } from './enabled-entry.js';
import type { DoctorCheck, SignInSource, SourceKind } from './sign-in-source.js';

export const oauth2Kind: SourceKind = {
  kind: 'oauth2',
  entryType: 'oauth2',
  label: 'OAuth2',
  sections: ['oidcIssuer', 'oauth2Flow'],
  testPanel: true,
};

/**
 * An entry of type oauth2 without an `oidc` block: URL templates and
 * expressions (docs/entries.md), run by the OAuth2 steps
 * (src/features/sign-in/oauth2-steps.ts) and the core's request builders.
 */
export function oauth2TemplateSource(entry: CompiledOAuth2Entry): SignInSource {
  return oauth2StepsSource(entry, {
    kind: oauth2Kind,
    signOut: templateSignOut(entry),
    doctorChecks: [],
  });
}

/** What an OpenID Connect entry changes of the OAuth2 steps' source (openid-connect-source.ts). */
interface OAuth2Variant {
  readonly kind: SourceKind;
  readonly signOut: SourceSignOut;
  readonly doctorChecks: readonly DoctorCheck[];
  /** Checks of the callback's fields before the code goes anywhere. */
  readonly checkCallback?: (fields: Readonly<Record<string, unknown>>) => void;
}

/** The source of an entry of type oauth2, with or without OpenID Connect. */
export function oauth2StepsSource(
  entry: CompiledOAuth2Entry,
  variant: OAuth2Variant,
): SignInSource {
  const { signOut } = variant;
  return {
    kind: variant.kind,
    authorizationRequest: (deps, options = {}) =>
      Promise.resolve(
        buildAuthorizationRequest(entry, {
          publicUrl: deps.publicUrl,
          random: deps.random,
          ...options,
        }),
      ),
    callback: {
      methods: callbackMethods(entry),
      // Without `${state}` in the authorization URL the server echoes none.
      correlationField: entry.authorize.placeholders.has('state') ? 'state' : undefined,
      // The parameter the entry names (DingTalk sends `authCode`).
      codeField: entry.shapes.callbackCodeParameter,
    },
    async readAnswer(deps, fields, pending) {
      const entryId = entry.id;
      const code = single(fields[entry.shapes.callbackCodeParameter]);
      const error = single(fields.error);
      if (error !== undefined) {
        const description = single(fields.error_description);
        throw new SignInError('provider_error', `the server answered error=${error}`, {
          entryId,
          publicDetail: description === undefined ? error : `${error}: ${description}`,
          facts: {
            error: excerpt(maskSecrets(error), 200),
            ...(description === undefined
              ? {}
              : { error_description: excerpt(maskSecrets(description), 200) }),
          },
        });
      }
      if (code === undefined || code === '') {
        throw new SignInError('missing_code', 'the callback carries no single code', { entryId });
      }
      refuseDisabled(entry);
      const { checkCallback } = variant;
      if (checkCallback !== undefined) {
        onStep(entry, () => {
          checkCallback(fields);
        });
      }
      return readSignedInUser(
        {
          appTokens: deps.appTokens,
          send: deps.send,
          clock: deps.clock,
          oidc: deps.oidc,
          telemetry: deps.telemetry,
        },
        entry,
        code,
        pending,
      );
    },
    groupMapping: entry.groupMapping,
    signOutDestination: (context) => signOut.signOutDestination(context),
    signOutAtSource: (options) => signOut.signOutAtSource(options),
    logoutNotifications: signOut.logoutNotifications,
    revalidate: (deps, session) =>
      entry.revalidation === undefined
        ? Promise.resolve(true)
        : revalidateSession(deps, entry, session),
    secrets: entry.appsecret === undefined ? [] : [entry.appsecret],
    async readTrialAnswer(deps, fields, pending, trace) {
      const code = checkedTrialCode(entry, fields);
      trace.result({ label: 'code', outcome: 'ok', value: MASK });
      trace.begin('app token');
      const { mapped } = await readSignedInUser(
        {
          appTokens: deps.appTokens,
          send: deps.send,
          clock: deps.clock,
          oidc: deps.oidc,
          telemetry: deps.telemetry,
          observer: trace,
        },
        entry,
        code,
        pending,
      );
      return mapped;
    },
    oauth2Steps: entry,
    doctorChecks: variant.doctorChecks,
  };
}

/**
 * Sign-out by the entry's logout template (docs/design.md#signing-out): the
 * browser sent there, or, when it holds `${app_secret}`, the gateway
 * calling it, so the browser goes nowhere else.
 */
export function templateSignOut(entry: CompiledOAuth2Entry): SourceSignOut {
  return {
    signOutDestination: () =>
      entry.logout === undefined || entry.logout.placeholders.has('app_secret')
        ? undefined
        : entry.logout.source,
    signOutAtSource: ({ publicUrl, random }) => buildLogoutRequest(entry, { publicUrl, random }),
    logoutNotifications: undefined,
  };
}

/** Runs a check whose coded refusal ends the sign-in under its own code. */
function onStep(entry: CompiledOAuth2Entry, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SignInError(error.code, error.message, { entryId: entry.id, cause: error });
  }
}

/** The callback's checks of an OAuth2 entry (complete-sign-in.ts), in the same order, for a test sign-in. */
function checkedTrialCode(
  entry: CompiledOAuth2Entry,
  query: Readonly<Record<string, unknown>>,
): string {
  const code = single(query[entry.shapes.callbackCodeParameter]);
  if (code !== undefined && code !== '' && !isVisibleAscii(code)) {
    throw new SignInError('code_invalid', 'the code has a control or non-ASCII character');
  }
  const error = single(query.error);
  if (error !== undefined) {
    const description = single(query.error_description);
    throw new SignInError(
      'provider_error',
      `the server answered error=${error}${description === undefined ? '' : `: ${description}`}`,
    );
  }
  if (code === undefined || code === '') {
    throw new SignInError('missing_code', 'the callback carries no single code');
  }
  return code;
}
