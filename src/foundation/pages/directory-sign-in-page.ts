import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';
import { passwordForm } from './password-form.js';

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
  return renderDocument(
    input.page,
    t.chooser.title,
    html`<h1>${input.entryName}</h1>
      ${input.trial === true ? html`<p role="note">${t.trialSignIn.passwordForm}</p> ` : undefined}
      ${passwordForm(t, {
        action: input.action,
        carried: { name: 'state', value: input.state },
        csrfToken: input.csrfToken,
        error: input.error,
        username: input.username,
      })}`,
  );
}
