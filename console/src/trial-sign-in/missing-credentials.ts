import type { EntryDraft } from '../entry-form/entry-draft.js';
import type { TrialCredential } from '../entry-kinds/entry-kind.js';
import { entryKindOf } from '../entry-kinds/registry.js';

/**
 * The credentials a test sign-in would need that the form leaves empty: of
 * those the entry's kind says the test uses (an OAuth2 entry's App id and
 * secret when a `${appid}` or `${app_secret}` placeholder or HTTP Basic
 * uses them), the App id when blank, and the App secret unless one is typed
 * or stored and kept. So a public client without a secret is not held
 * back. A test started without them would open the provider's window and
 * then fail on the missing value; naming the fields first leaves nothing
 * half-open. Plain code, no DOM.
 */
export function missingCredentials(
  draft: Pick<EntryDraft, 'type' | 'appid' | 'appsecret' | 'clientAuthentication'>,
  templates: string,
): TrialCredential[] {
  const secret = draft.appsecret;
  // An empty replacement keeps the stored secret (body-parts.ts, secretBody).
  const secretGiven = secret.mode !== 'clear' && (secret.stored || secret.value !== '');
  const given: Record<TrialCredential, boolean> = {
    appid: draft.appid.trim() !== '',
    appsecret: secretGiven,
  };
  return entryKindOf(draft)
    .trialCredentials(draft, templates)
    .filter((credential) => !given[credential]);
}
