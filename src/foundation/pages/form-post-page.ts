import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

interface FormPostPageInput {
  /** The application's redirect URI, where the form posts. */
  readonly action: string;
  /** The answer's fields (code or error, state, iss), in order. */
  readonly fields: readonly (readonly [string, string])[];
  /** The nonce the page's Content-Security-Policy allows its one script by. */
  readonly scriptNonce: string;
  readonly page?: PageContext;
}

/**
 * The OpenID Provider's answer in the form_post response mode (OAuth 2.0
 * Form Post Response Mode §2): a form of hidden fields posting to the
 * application, submitted at once by its one script; without script, its
 * button does the same.
 */
export function formPostPage(input: FormPostPageInput): string {
  const t = messagesOf(input.page).formPost;
  const inputs = input.fields.map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.heading}</h1>
      <form method="post" action="${input.action}">
        ${inputs}
        <button type="submit">${t.continue}</button>
      </form>
      <script nonce="${input.scriptNonce}">
        document.forms[0].submit();
      </script>`,
  );
}
