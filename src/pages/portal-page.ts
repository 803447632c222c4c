import { html } from './html.js';
import { renderDocument } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signOutForm, signedInAs } from './sign-out-form.js';

export interface PortalUser extends SignedInUser {
  readonly isAdmin: boolean;
}

export interface PortalPageInput {
  readonly user: PortalUser;
  readonly signOutCsrf: string;
}

/** The gateway's own page for internal resources when no upstream is set. */
export function portalPage(input: PortalPageInput): string {
  const { user } = input;
  const name = user.userName ?? user.email;
  return renderDocument(
    'Signed in',
    html`<h1>Signed in</h1>
      ${signedInAs(user)}
      ${
        user.email === undefined || user.email === name
          ? undefined
          : html`<p class="meta">E-mail: ${user.email}</p> `
      }
      ${signOutForm(input.signOutCsrf)}
      ${
        user.isAdmin
          ? html`<nav aria-label="Administration">
              <ul>
                <li><a href="/_sso/admin">Admin console</a></li>
              </ul>
            </nav> `
          : undefined
      }`,
  );
}
