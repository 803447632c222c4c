import type { CompiledOAuth2Entry } from '../../../core/index.js';
import { checkCallbackIssuer } from '../../../core/index.js';
import { endSessionUrl } from '../../sessions/provider-logout.js';
import { single } from './callback-fields.js';
import { oauth2StepsSource, templateSignOut } from './oauth2-template-source.js';
import type { SignInSource, SourceKind } from './sign-in-source.js';

export const openIdConnectKind: SourceKind = {
  kind: 'openid-connect',
  entryType: 'oauth2',
  label: 'OpenID Connect',
  sections: ['oidcIssuer', 'oauth2Flow'],
  testPanel: true,
};

/** An oauth2 entry with its `oidc` block. */
export type OpenIdConnectEntry = CompiledOAuth2Entry & {
  readonly oidc: NonNullable<CompiledOAuth2Entry['oidc']>;
};

/**
 * An entry of type oauth2 with an `oidc` block (docs/entries.md#openid-connect):
 * the OAuth2 steps with the provider's discovered endpoints, its id_token
 * verified (oauth2-steps.ts), the callback's `iss` checked (RFC 9207), its
 * RP-Initiated, back-channel and front-channel logout, and its discovery
 * checked by `ssogate doctor`.
 */
export function openIdConnectSource(entry: OpenIdConnectEntry): SignInSource {
  const { oidc } = entry;
  const byTemplate = templateSignOut(entry);
  // An administrator's logoutUrl wins over the provider's end_session_endpoint.
  const endpoint = entry.logout === undefined ? oidc.discovery.endSessionEndpoint : undefined;
  return oauth2StepsSource(entry, {
    kind: openIdConnectKind,
    // RFC 9207: before the code goes anywhere, the response must be this provider's.
    checkCallback: (fields) => {
      checkCallbackIssuer(oidc.discovery, single(fields.iss) ?? fields.iss);
    },
    signOut: {
      signOutDestination: (context) => endpoint ?? byTemplate.signOutDestination(context),
      signOutAtSource: (options) =>
        endpoint !== undefined && options.idToken !== undefined
          ? {
              channel: 'front',
              url: endSessionUrl(endpoint, {
                idToken: options.idToken,
                publicUrl: options.publicUrl,
                clientId: entry.appid,
              }),
            }
          : byTemplate.signOutAtSource(options),
      logoutNotifications: {
        issuer: oidc.issuer,
        discovery: oidc.discovery,
        clockSkewSeconds: oidc.clockSkewSeconds,
        clientId: entry.appid ?? '',
      },
    },
    doctorChecks: [{ check: 'openid-discovery', issuer: oidc.issuer }],
  });
}
