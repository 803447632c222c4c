import { withoutUndefined } from '../entry-form/body-parts.js';
import { samlBody } from '../entry-form/saml-draft.js';
import type { EntryBody } from '../types.js';
import type { EntryKind, FailedStep } from './entry-kind.js';

/**
 * A SAML 2.0 identity provider (docs/entries.md#saml-20-identity-providers):
 * the gateway is its service provider; the entry holds the provider's
 * sign-on URL, entityID and certificate, and the attributes read into the user.
 */
/**
 * The field a failed check of the Response blames, by its code
 * (src/features/saml/saml-response.ts); a Response that came back refused
 * or unreadable blames the sign-on URL it was asked at.
 */
function blamedField(step: FailedStep): string | undefined {
  if (step.name !== 'saml response') return undefined;
  switch (step.error?.code) {
    case 'saml_signature_invalid':
      return 'saml.idpCertificate';
    case 'saml_decryption_failed':
      return 'saml.spCertificate';
    case 'saml_issuer_mismatch':
      return 'saml.idpEntityId';
    case 'saml_audience_mismatch':
    case 'saml_destination_mismatch':
      return 'saml.spEntityId';
    case 'saml_assertion_expired':
      return 'saml.clockSkewSeconds';
    case 'user_id_missing':
      return 'saml.attributes.userId';
    default:
      return 'saml.ssoUrl';
  }
}

export const samlKind: EntryKind = {
  id: 'saml',
  label: (words) => words.entryForm.general.saml,
  badge: (words) => words.entries.saml,
  sections: ['samlIdentityProvider', 'users'],
  // The Response is signed XML the provider posts; there is nothing to paste.
  samplesTest: false,
  // A test sign-in goes to the provider; its Response comes back by its RelayState.
  trialSignIn: true,
  // The gateway signs nothing; its key for encrypted assertions (the App
  // secret) is optional, so a draft without one is no reason to stop.
  trialCredentials: () => [],
  blamedField,
  body: (draft, common) =>
    withoutUndefined<EntryBody>({
      type: 'saml',
      ...common,
      ...samlBody(draft.saml),
    }),
};
