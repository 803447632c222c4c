import { SsogateError } from '../errors/ssogate-error.js';
import type { OidcDiscovery } from './discovery.js';

/**
 * RFC 9207 §2.4: when the authorization response names its issuer, it must
 * be this entry's; when the provider declares that it always names it, a
 * response without `iss` is refused too. This is the defence against a
 * mix-up, where a response from one provider is replayed at another's
 * callback, and runs before the code is sent anywhere.
 */
export function checkCallbackIssuer(discovery: OidcDiscovery, iss: unknown): void {
  if (iss === undefined) {
    if (discovery.issParameterSupported) {
      throw new SsogateError(
        'callback_issuer_mismatch',
        'the provider declares authorization_response_iss_parameter_supported, and this callback has no iss',
      );
    }
    return;
  }
  if (iss !== discovery.issuer) {
    throw new SsogateError(
      'callback_issuer_mismatch',
      `the callback's iss is ${typeof iss === 'string' ? JSON.stringify(iss) : 'repeated'}, not ${JSON.stringify(discovery.issuer)}`,
    );
  }
}
