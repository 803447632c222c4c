import { html } from './html.js';
import type { SafeHtml } from './html.js';
import type { PageMessages } from './i18n/index.js';

/** Who a page says is signed in. */
export interface SignedInUser {
  readonly userId: string;
  readonly userName?: string;
  readonly email?: string;
}

/** "Signed in as Name (id)", or the id alone when there is no other name. */
export function signedInAs(t: PageMessages, user: SignedInUser): SafeHtml {
  const name = user.userName ?? user.email;
  const who =
    name === undefined || name === user.userId
      ? html`<strong>${user.userId}</strong>`
      : html`<strong>${name}</strong> (${user.userId})`;
  return html`<p>${t.signOut.signedInAs} ${who}</p>`;
}

/**
 * Sign-out is a POST with the session's form token (a CSRF defence), so a
 * third-party page cannot sign the user out with a link or an image. Two
 * buttons (docs/design.md#signing-out): "here" ends the gateway's session
 * only, so the next visit signs in silently while the user is still signed
 * in at the server; "everywhere" also follows the entry's logout URL.
 */
export function signOutForm(t: PageMessages, csrf: string): SafeHtml {
  // Each button says what it does where it is chosen; the stylesheet makes
  // "here" the lighter one (stylesheet.ts, the sign-out form's rules).
  return html`<form method="post" action="/_sso/logout">
    <input type="hidden" name="csrf" value="${csrf}" />
    <button type="submit" name="scope" value="here">${t.signOut.here}</button>
    <p class="meta sign-out-means">${t.signOut.hereMeans}</p>
    <button type="submit" name="scope" value="everywhere">${t.signOut.everywhere}</button>
    <p class="meta sign-out-means">${t.signOut.everywhereMeans}</p>
  </form>`;
}
