import type { CompiledEntry, CompiledTemplate } from '../core/index.js';
import { SsogateError, renderUrl } from '../core/index.js';
import type { AddressPolicy } from './address-policy.js';

/**
 * The outbound address policy applied when an entry is saved (admin API,
 * live validation, provisioning file, CLI import): every URL the gateway
 * itself will call — token, user-info, a back-channel logout (one that holds
 * `${app_secret}`) and an extension service — must name a host the policy
 * allows. The authorization URL and a front-channel logout URL are only
 * browser redirects, never called by the gateway, so they are not checked.
 * The same policy is applied again to every resolved address before a
 * connection is made (outbound-client.ts), since DNS can change its answer.
 */
export function entryAddressProblems(entry: CompiledEntry, policy: AddressPolicy): SsogateError[] {
  const urls: [string, string][] =
    entry.type === 'extension'
      ? [['extensionUrl', entry.extension.url]]
      : [
          ...(entry.token === undefined
            ? []
            : [['tokenUrl', sampleUrl(entry.token.template)] as [string, string]]),
          ['userInfoUrl', sampleUrl(entry.userInfo.template)],
          ...(entry.shapes.appToken === undefined
            ? []
            : [['appToken.url', sampleUrl(entry.shapes.appToken.template)] as [string, string]]),
          ...entry.shapes.userInfoCalls.map(
            (call, index) =>
              [`userInfoCalls[${index}].url`, sampleUrl(call.template)] as [string, string],
          ),
          ...(entry.logout?.placeholders.has('app_secret') === true
            ? [['logoutUrl', sampleUrl(entry.logout)] as [string, string]]
            : []),
        ];
  return urls.flatMap(([field, url]) => {
    const refusal = policy.hostRefusal(new URL(url).hostname);
    return refusal === undefined
      ? []
      : [
          new SsogateError(
            'url_address_refused',
            `${refusal}; the gateway does not call such addresses unless SSOGATE_OUTBOUND_ALLOW lists them`,
            { field },
          ),
        ];
  });
}

/** The host is fixed when the entry is saved (placeholders stand only after it). */
function sampleUrl(template: CompiledTemplate): string {
  return renderUrl(
    template,
    Object.fromEntries([...template.placeholders].map((name) => [name, 'x'])),
  );
}
