import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signOutForm, signedInAs } from './sign-out-form.js';

export interface PortalUser extends SignedInUser {
  readonly isAdmin: boolean;
}

export interface PortalPageInput {
  readonly user: PortalUser;
  readonly signOutCsrf: string;
  readonly page?: PageContext;
}

/** The gateway's own page for internal resources when no upstream is set. */
export function portalPage(input: PortalPageInput): string {
  const { user } = input;
  const name = user.userName ?? user.email;
  const t = messagesOf(input.page);
  return renderDocument(
    input.page,
    t.portal.title,
    html`<h1>${t.portal.title}</h1>
      ${signedInAs(t, user)}
      ${
        user.email === undefined || user.email === name
          ? undefined
          : html`<p class="meta">${t.portal.email} ${user.email}</p> `
      }
      ${signOutForm(t, input.signOutCsrf)}
      ${
        user.isAdmin
          ? html`<nav aria-label="${t.portal.administration}">
              <ul>
                <li><a href="/_sso/admin">${t.portal.console}</a></li>
              </ul>
            </nav> `
          : undefined
      }`,
  );
}
