import { secretBody, withoutUndefined } from '../entry-form/body-parts.js';
import { parseSettings } from '../entry-form/extension-settings.js';
import type { EntryBody } from '../types.js';
import type { EntryKind } from './entry-kind.js';

/**
 * An extension entry (docs/extension.md): a service of the administrator's
 * own signs the user in; the gateway holds its URL, secret and settings.
 */
export const extensionKind: EntryKind = {
  id: 'extension',
  label: (words) => words.entryForm.general.extension,
  badge: (words) => words.entries.extension,
  sections: ['extensionService', 'users'],
  // Its answers come from the service, not from templates pasted samples could try.
  samplesTest: false,
  // The service holds its own credentials; the gateway sends only its signed call.
  trialSignIn: true,
  trialCredentials: () => [],
  blamedField: (step) => (step.name === 'extension' ? 'extensionUrl' : undefined),
  body: (draft, common) =>
    withoutUndefined<EntryBody>({
      type: 'extension',
      ...common,
      extensionUrl: draft.extensionUrl,
      extensionSecret: secretBody(draft.extensionSecret),
      extensionSettings: parseSettings(draft.extensionSettings),
    }),
};
