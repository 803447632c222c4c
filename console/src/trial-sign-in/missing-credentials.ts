import type { EntryDraft } from '../entry-form/entry-draft.js';

/**
 * The credentials a test sign-in would need that the form leaves empty: the
 * App id, and the App secret unless one is stored and kept. Each only when
 * the entry uses it (a `${appid}` or `${app_secret}` placeholder, or HTTP
 * Basic), so a public client without a secret is not held back. A test
 * started without them would open the provider's window and then fail on
 * the missing value; naming the fields first leaves nothing half-open.
 * Plain code, no DOM.
 */
export function missingCredentials(
  draft: Pick<EntryDraft, 'type' | 'appid' | 'appsecret' | 'clientAuthentication'>,
  templates: string,
): ('appid' | 'appsecret')[] {
  if (draft.type === 'extension') return [];
  const basic = draft.clientAuthentication === 'basic';
  const missing: ('appid' | 'appsecret')[] = [];
  if ((basic || templates.includes('${appid}')) && draft.appid.trim() === '') missing.push('appid');
  const secret = draft.appsecret;
  // An empty replacement keeps the stored secret (entry-draft.ts, secretBody).
  const secretGiven = secret.mode !== 'clear' && (secret.stored || secret.value !== '');
  if ((basic || templates.includes('${app_secret}')) && !secretGiven) missing.push('appsecret');
  return missing;
}
