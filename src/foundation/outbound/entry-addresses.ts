import type { CompiledEntry } from '../../core/index.js';
import { SsogateError, entryCallUrls } from '../../core/index.js';
import type { AddressPolicy } from './address-policy.js';

/**
 * The outbound address policy applied when an entry is saved (admin API,
 * live validation, provisioning file, CLI import): every URL the gateway
 * itself will call (entryCallUrls, src/core/entry/call-urls.ts) must name a
 * host the policy allows.
 * The same policy is applied again to every resolved address before a
 * connection is made (outbound-client.ts), since DNS can change its answer.
 */
export function entryAddressProblems(entry: CompiledEntry, policy: AddressPolicy): SsogateError[] {
  return entryCallUrls(entry).flatMap(([field, url]) => {
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
