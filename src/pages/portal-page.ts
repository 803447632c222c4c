import { html } from './html.js';
import { renderDocument } from './layout.js';

export interface PortalUser {
  readonly userId: string;
  readonly userName?: string;
  readonly email?: string;
  readonly isAdmin: boolean;
}

export interface PortalPageInput {
  readonly user: PortalUser;
  readonly signOutCsrf: string;
}

/**
 * The gateway's own page for internal resources when no upstream is set.
 * Sign-out is a POST form with a CSRF field, so a third-party page cannot
 * sign the user out with a link or image.
 */
export function portalPage(input: PortalPageInput): string {
  const { user } = input;
  const name = user.userName ?? user.email;
  const who =
    name === undefined || name === user.userId
      ? html`<strong>${user.userId}</strong>`
      : html`<strong>${name}</strong> (${user.userId})`;
  return renderDocument(
    'Signed in',
    html`<h1>Signed in</h1>
      <p>Signed in as ${who}</p>
      ${
        user.email === undefined || user.email === name
          ? undefined
          : html`<p class="meta">E-mail: ${user.email}</p> `
      }
      <form method="post" action="/_sso/logout">
        <input type="hidden" name="csrf" value="${input.signOutCsrf}" />
        <button type="submit">Sign out</button>
      </form>
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
