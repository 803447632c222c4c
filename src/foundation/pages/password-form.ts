import { html } from './html.js';
import type { SafeHtml } from './html.js';
import type { PageMessages } from './i18n/index.js';

interface PasswordFormInput {
  /** Where the form posts. */
  readonly action: string;
  /** The one hidden field that says which sign-in the form continues. */
  readonly carried: { readonly name: string; readonly value: string };
  readonly csrfToken: string;
  readonly error?: string | undefined;
  readonly username?: string | undefined;
}

/**
 * A username and password form with the error it last answered, shared by
 * the chooser's local sign-in and a directory entry's password page so the
 * two keep the same fields, words and accessibility hints.
 */
export function passwordForm(t: PageMessages, form: PasswordFormInput): SafeHtml {
  const hasError = form.error !== undefined && form.error !== '';
  // aria-describedby ties the message to the fields, so a screen reader
  // announces it when the user returns to them.
  const invalid = hasError
    ? html` aria-invalid="true" aria-describedby="sign-in-error"`
    : undefined;
  return html`${
      hasError
        ? html`<p class="error" id="sign-in-error" role="alert">${form.error}</p> `
        : undefined
    }
    <form method="post" action="${form.action}">
      <input type="hidden" name="${form.carried.name}" value="${form.carried.value}" />
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
