import { html } from './html.js';
import type { PageMessages } from './i18n/index.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

export interface ChooserEntry {
  readonly id: string;
  readonly name: string;
}

export interface LocalFormInput {
  readonly csrfToken: string;
  readonly error?: string;
  readonly username?: string;
}

export interface ChooserPageInput {
  readonly entries: readonly ChooserEntry[];
  /** Already made safe by safeReturnTo; only ever encoded and escaped here. */
  readonly returnTo: string;
  readonly localForm: LocalFormInput | undefined;
  readonly page?: PageContext;
}

/** The sign-in chooser at GET /_sso/login: links, no script. */
export function chooserPage(input: ChooserPageInput): string {
  const { entries, returnTo, localForm } = input;
  const t = messagesOf(input.page);
  const links = entries.map(
    (entry) =>
      html`<li><a class="button" href="${entryHref(entry.id, returnTo)}">${entry.name}</a></li> `,
  );
  const hasEntries = entries.length > 0;
  return renderDocument(
    input.page,
    t.chooser.title,
    html`<h1>${t.chooser.title}</h1>
      ${
        hasEntries
          ? html`<ul class="entries">
              ${links}
            </ul> `
          : undefined
      }${localForm === undefined ? undefined : localFormHtml(t, localForm, returnTo, hasEntries)}${
        !hasEntries && localForm === undefined ? html`<p>${t.chooser.none}</p>` : undefined
      }`,
  );
}

export function entryHref(id: string, returnTo: string): string {
  return `/_sso/login/${encodeURIComponent(id)}?return_to=${encodeURIComponent(returnTo)}`;
}

function localFormHtml(
  t: PageMessages,
  form: LocalFormInput,
  returnTo: string,
  afterEntries: boolean,
) {
  const hasError = form.error !== undefined && form.error !== '';
  // aria-describedby ties the message to the fields, so a screen reader
  // announces it when the user returns to them.
  const invalid = hasError
    ? html` aria-invalid="true" aria-describedby="sign-in-error"`
    : undefined;
  return html`${afterEntries ? html`<p class="separator">${t.chooser.or}</p> ` : undefined}
    <h2>${t.chooser.withPassword}</h2>
    ${
      hasError
        ? html`<p class="error" id="sign-in-error" role="alert">${form.error}</p> `
        : undefined
    }
    <form method="post" action="/_sso/login/local">
      <input type="hidden" name="return_to" value="${returnTo}" />
      <input type="hidden" name="csrf" value="${form.csrfToken}" />
      <label for="username">${t.chooser.username}</label>
      <input
        id="username"
        name="username"
        type="text"
        autocomplete="username"
        autocapitalize="none"
        spellcheck="false"
        required
        value="${form.username ?? ''}"
        ${invalid}
      />
      <label for="password">${t.chooser.password}</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="current-password"
        required${invalid}
      />
      <button type="submit">${t.chooser.submit}</button>
    </form> `;
}
