import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

interface DirectorySignInPageInput {
  /** The entry's name, the page's heading. */
  readonly entryName: string;
  /** Where the form posts: the entry's own form route. */
  readonly action: string;
  /** The pending sign-in's state, posted back with the form. */
  readonly state: string;
  readonly csrfToken: string;
  readonly error?: string;
  readonly username?: string;
  /** The form of an administrator's test sign-in, which says so. */
  readonly trial?: boolean;
  readonly page?: PageContext;
}

/**
 * The password form of an entry whose directory checks the password
 * (an LDAP entry): the local sign-in's form and words, no script.
 */
export function directorySignInPage(input: DirectorySignInPageInput): string {
  const t = messagesOf(input.page);
  const hasError = input.error !== undefined && input.error !== '';
  const invalid = hasError
    ? html` aria-invalid="true" aria-describedby="sign-in-error"`
    : undefined;
  return renderDocument(
    input.page,
    t.chooser.title,
    html`<h1>${input.entryName}</h1>
      ${input.trial === true ? html`<p role="note">${t.trialSignIn.passwordForm}</p> ` : undefined}
      ${
        hasError
          ? html`<p class="error" id="sign-in-error" role="alert">${input.error}</p> `
          : undefined
      }
      <form method="post" action="${input.action}">
        <input type="hidden" name="state" value="${input.state}" />
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <label for="username">${t.chooser.username}</label>
        <input
          id="username"
          name="username"
          type="text"
          autocomplete="username"
          autocapitalize="none"
          spellcheck="false"
          required
          value="${input.username ?? ''}"
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
      </form> `,
  );
}
