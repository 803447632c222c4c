import { html } from './html.js';
import { renderDocument } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signOutForm, signedInAs } from './sign-out-form.js';

export interface SignOutPageInput {
  readonly user: SignedInUser;
  readonly signOutCsrf: string;
}

/**
 * GET /_sso/logout: asks before signing out. A GET must change nothing (RFC
 * 9110 §9.2.1), and a link or an image on any page can make one; only this
 * page's form, which carries the form token, signs the user out.
 */
export function signOutPage(input: SignOutPageInput): string {
  return renderDocument(
    'Sign out',
    html`<h1>Sign out?</h1>
      ${signedInAs(input.user)} ${signOutForm(input.signOutCsrf)}
      <p><a href="/">Stay signed in</a></p>`,
  );
}
