import { withoutUndefined } from '../entry-form/body-parts.js';
import { samlBody } from '../entry-form/saml-draft.js';
import type { EntryBody } from '../types.js';
import type { EntryKind } from './entry-kind.js';

/**
 * A SAML 2.0 identity provider (docs/entries.md#saml-20-identity-providers):
 * the gateway is its service provider; the entry holds the provider's
 * sign-on URL, entityID and certificate, and the attributes read into the user.
 */
export const samlKind: EntryKind = {
  id: 'saml',
  label: (words) => words.entryForm.general.saml,
  badge: (words) => words.entries.saml,
  sections: ['samlIdentityProvider', 'users'],
  // The Response is signed XML the provider posts; there is nothing to paste.
  samplesTest: false,
  // The gateway signs nothing and holds no secret of the provider.
  trialCredentials: () => [],
  blamedField: (step) => (step.name === 'saml' ? 'saml.ssoUrl' : undefined),
  body: (draft, common) =>
    withoutUndefined<EntryBody>({
      type: 'saml',
      ...common,
      ...samlBody(draft.saml),
    }),
};
