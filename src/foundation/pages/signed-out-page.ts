import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

/** "here": the gateway's session ended; "everywhere": the server was told too. */
export type SignOutScope = 'here' | 'everywhere';

/**
 * GET /_sso/signed-out (docs/design.md#signing-out). Never redirects and has no meta refresh:
 * going back to sign-in by itself would sign the user straight back in at a
 * third-party server that still has a session.
 */
export function signedOutPage(input: {
  readonly scope: SignOutScope;
  readonly page?: PageContext;
}): string {
  const t = messagesOf(input.page).signedOut;
  return renderDocument(
    input.page,
    t.title,
    input.scope === 'here'
      ? html`<h1>${t.hereHeading}</h1>
          <p>${t.hereText}</p>
          <a class="button" href="/_sso/login">${t.again}</a>`
      : html`<h1>${t.everywhereHeading}</h1>
          <p>${t.everywhereText}</p>
          <a class="button" href="/_sso/login">${t.again}</a>`,
  );
}
