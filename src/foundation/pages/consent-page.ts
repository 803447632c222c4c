import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signedInAs } from './sign-out-form.js';

interface ConsentPageInput {
  /** The application's name, as its client is registered. */
  readonly application: string;
  readonly user: SignedInUser;
  /** The groups it would receive, as the user has them now. */
  readonly groups: readonly string[];
  /** Where the form posts (features/openid-provider/endpoints.ts). */
  readonly action: string;
  /** The form's single-use token, bound to this browser's session and this request. */
  readonly formToken: string;
  readonly page?: PageContext;
}

/**
 * The OpenID Provider's consent page: which application asks, and each claim
 * it would receive, with the user's own values; Allow or Deny post the form,
 * and nothing else does (a GET changes nothing).
 */
export function consentPage(input: ConsentPageInput): string {
  const t = messagesOf(input.page);
  const { user, groups } = input;
  const claims = [
    html`<li>${t.consent.identifier}</li>`,
    html`<li>${t.consent.name} <strong>${user.userName ?? user.userId}</strong></li>`,
    user.email === undefined
      ? undefined
      : html`<li>${t.consent.email} <strong>${user.email}</strong></li>`,
    groups.length === 0
      ? html`<li>${t.consent.noGroups}</li>`
      : html`<li>${t.consent.groups} <strong>${groups.join(', ')}</strong></li>`,
  ];
  return renderDocument(
    input.page,
    t.consent.title,
    html`<h1>${t.consent.heading}</h1>
      <p>${t.consent.application} <strong class="application">${input.application}</strong></p>
      ${signedInAs(t, user)}
      <p>${t.consent.receives}</p>
      <ul class="claims">
        ${claims}
      </ul>
      <form method="post" action="${input.action}">
        <input type="hidden" name="consent" value="${input.formToken}" />
        <button type="submit" name="decision" value="allow">${t.consent.allow}</button>
        <button type="submit" class="secondary" name="decision" value="deny">
          ${t.consent.deny}
        </button>
        <p class="meta">${t.consent.denyMeans}</p>
      </form>`,
  );
}
