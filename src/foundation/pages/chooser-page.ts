import { html } from './html.js';
import type { PageMessages } from './i18n/index.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';
import { passwordForm } from './password-form.js';

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
  return html`${afterEntries ? html`<p class="separator">${t.chooser.or}</p> ` : undefined}
    <h2>${t.chooser.withPassword}</h2>
    ${passwordForm(t, {
      ...form,
      action: '/_sso/login/local',
      carried: { name: 'return_to', value: returnTo },
    })}`;
}
