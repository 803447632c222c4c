import { html } from './html.js';
import { renderDocument } from './layout.js';

/** "here": the gateway's session ended; "everywhere": the server was told too. */
export type SignOutScope = 'here' | 'everywhere';

/**
 * GET /_sso/signed-out (docs/design.md#signing-out). Never redirects and has no meta refresh:
 * going back to sign-in by itself would sign the user straight back in at a
 * third-party server that still has a session.
 */
export function signedOutPage(input: { readonly scope: SignOutScope }): string {
  return renderDocument(
    'Signed out',
    input.scope === 'here'
      ? html`<h1>You are signed out here.</h1>
          <p>
            You are still signed in at the server you signed in with, so signing in again may not
            ask for your password. To end that too, sign in again and choose Sign out everywhere.
          </p>
          <a class="button" href="/_sso/login">Sign in again</a>`
      : html`<h1>You are signed out.</h1>
          <p>You can close this window, or sign in again.</p>
          <a class="button" href="/_sso/login">Sign in again</a>`,
  );
}
