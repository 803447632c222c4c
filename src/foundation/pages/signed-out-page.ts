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
  /**
   * The applications' front-channel logout URIs, loaded in hidden frames
   * (OpenID Connect Front-Channel Logout 1.0 §2; the page's CSP frame-src
   * names their origins).
   */
  readonly logoutFrames?: readonly string[];
  /**
   * Where the sign-out goes on once the frames have loaded (the client's
   * post_logout_redirect_uri, an upstream provider's logout): a link, and a
   * meta refresh after two seconds. Never the sign-in page.
   */
  readonly continueTo?: string;
}): string {
  const t = messagesOf(input.page).signedOut;
  const frames = (input.logoutFrames ?? []).map(
    (uri) => html`<iframe class="logout-frame" hidden src="${uri}" title=""></iframe>`,
  );
  const next =
    input.continueTo === undefined
      ? html`<a class="button" href="/_sso/login">${t.again}</a>`
      : html`<meta http-equiv="refresh" content="2;url=${input.continueTo}" />
          <a class="button" href="${input.continueTo}">${t.continue}</a>`;
  return renderDocument(
    input.page,
    t.title,
    input.scope === 'here'
      ? html`<h1>${t.hereHeading}</h1>
          <p>${t.hereText}</p>
          ${next} ${frames}`
      : html`<h1>${t.everywhereHeading}</h1>
          <p>${t.everywhereText}</p>
          ${next} ${frames}`,
  );
}
