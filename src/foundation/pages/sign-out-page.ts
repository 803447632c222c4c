import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signOutForm, signedInAs } from './sign-out-form.js';

export interface SignOutPageInput {
  readonly user: SignedInUser;
  readonly signOutCsrf: string;
  readonly page?: PageContext;
}

/**
 * GET /_sso/logout: asks before signing out. A GET must change nothing (RFC
 * 9110 §9.2.1), and a link or an image on any page can make one; only this
 * page's form, which carries the form token, signs the user out.
 */
export function signOutPage(input: SignOutPageInput): string {
  const t = messagesOf(input.page);
  return renderDocument(
    input.page,
    t.signOut.title,
    html`<h1>${t.signOut.heading}</h1>
      ${signedInAs(t, input.user)} ${signOutForm(t, input.signOutCsrf)}
      <p><a href="/">${t.signOut.stay}</a></p>`,
  );
}
