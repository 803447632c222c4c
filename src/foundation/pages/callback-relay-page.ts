import { createHash } from 'node:crypto';
import { SafeHtml, html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

/** The one script a gateway page runs: it submits the relay form at once. */
const SUBMIT_SCRIPT = "document.getElementById('relay').submit();";

/** The CSP source that lets the relay page's script, and no other, run. */
export const RELAY_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

// Built outside any template that a formatter could re-indent: the CSP
// hash covers the script's exact text.
const submitScript = new SafeHtml(`<script>${SUBMIT_SCRIPT}</script>`);

/** The field that marks a relayed post, so it is never relayed twice. */
export const RELAYED_FIELD = 'ssogate_relayed';

interface CallbackRelayPageInput {
  /** The same-origin path the form posts back to: the callback itself. */
  readonly action: string;
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly page?: PageContext;
}

/**
 * A form that posts a callback's fields again, from the gateway's own
 * origin (docs/design.md#the-callback-by-post): the server's post was
 * cross-site, so the browser left the SameSite=Lax binding cookie out; the
 * post this page makes is same-site, so the cookie comes with it. The
 * script submits it at once; without script, the button does.
 */
export function callbackRelayPage(input: CallbackRelayPageInput): string {
  const t = messagesOf(input.page).callbackRelay;
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.title}</h1>
      <form id="relay" method="post" action="${input.action}">
        ${input.fields.map(
          ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
        )}
        <input type="hidden" name="${RELAYED_FIELD}" value="1" />
        <button type="submit">${t.continue}</button>
      </form>
      ${submitScript}`,
  );
}
