import { html } from './html.js';
import { renderDocument } from './layout.js';

/**
 * GET /_sso/signed-out (docs/design.md#signing-out). Never redirects and has no meta refresh:
 * going back to sign-in by itself would sign the user straight back in at a
 * third-party server that still has a session.
 */
export function signedOutPage(): string {
  return renderDocument(
    'Signed out',
    html`<h1>You are signed out.</h1>
      <p>You can close this window, or sign in again.</p>
      <a class="button" href="/_sso/login">Sign in again</a>`,
  );
}
