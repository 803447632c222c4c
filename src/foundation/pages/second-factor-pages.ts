import { html } from './html.js';
import type { SafeHtml } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';

/**
 * The pages of a second factor (docs/security.md#second-factor): asking
 * for a code, enrolling an authenticator, the recovery codes shown once,
 * and the user's list of factors. No script; every form carries the
 * session's form token and where to come back to.
 */

interface FormBase {
  readonly csrfToken: string;
  readonly returnTo: string;
  readonly page?: PageContext | undefined;
  readonly error?: string | undefined;
}

function hiddenFields(form: FormBase): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${form.csrfToken}" />
    <input type="hidden" name="return_to" value="${form.returnTo}" />`;
}

/** A form posted to `action` with the session's form token and where to come back to. */
function factorForm(form: FormBase, action: string, fields: SafeHtml): SafeHtml {
  return html`<form method="post" action="${action}">${hiddenFields(form)} ${fields}</form>`;
}

/**
 * The one-time code's field. The verify page's also checks the code's shape
 * and takes the focus; the enrolment page's leaves the focus on the name.
 */
function codeField(label: string, verifying: boolean): SafeHtml {
  return html`<label for="code">${label}</label>
    <input
      id="code"
      name="code"
      type="text"
      inputmode="numeric"
      autocomplete="one-time-code"
      ${verifying ? html`pattern="[0-9 ]{6,7}"` : undefined}
      maxlength="7"
      required
      ${verifying ? html`autofocus` : undefined}
    />`;
}

/** The name of a new factor, an authenticator's or a passkey's (the routes keep 64 characters). */
export function factorNameField(label: string, defaultName: string): SafeHtml {
  return html`<label for="name">${label}</label>
    <input id="name" name="name" type="text" maxlength="64" value="${defaultName}" required />`;
}

/** The link to the other kind of factor, a passkey's enrolment, where the page offers it. */
function addPasskeyLink(
  page: PageContext | undefined,
  href: string | undefined,
): SafeHtml | undefined {
  return href === undefined
    ? undefined
    : html`<p><a href="${href}">${messagesOf(page).passkey.add}</a></p>`;
}

function errorLine(error: string | undefined): SafeHtml | undefined {
  return error === undefined
    ? undefined
    : html`<p class="error" id="factor-error" role="alert">${error}</p> `;
}

/** GET /_sso/factor for a user with a factor: a code, or a recovery code. */
export function verifyFactorPage(input: FormBase & { readonly action: string }): string {
  const t = messagesOf(input.page).secondFactor;
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.verifyHeading}</h1>
      <p>${t.verifyMeans}</p>
      ${errorLine(input.error)}
      ${factorForm(
        input,
        input.action,
        html`${codeField(t.code, true)} <button type="submit">${t.verify}</button>`,
      )}
      <p>${t.orRecovery}</p>
      ${factorForm(
        input,
        input.action,
        html`<label for="recovery">${t.recoveryCode}</label>
          <input
            id="recovery"
            name="recovery"
            type="text"
            autocomplete="off"
            maxlength="32"
            required
          />
          <button type="submit">${t.useRecovery}</button>`,
      )}`,
  );
}

interface EnrolPageInput extends FormBase {
  readonly action: string;
  /** The otpauth:// URI and its secret, base32. */
  readonly uri: string;
  readonly secret: string;
  /** The enrolment, sealed, posted back with the code. */
  readonly sealed: string;
  /** The other kind of factor: a passkey's enrolment. */
  readonly passkeyHref?: string | undefined;
}

/** Enrolment: the key shown (no QR code), a code to prove it, a name. */
export function enrolFactorPage(input: EnrolPageInput): string {
  const t = messagesOf(input.page).secondFactor;
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.enrolHeading}</h1>
      <p>${t.enrolMeans}</p>
      <p>${t.secret} <code id="factor-secret">${input.secret}</code></p>
      <p>${t.uri} <code id="factor-uri">${input.uri}</code></p>
      ${errorLine(input.error)}
      ${factorForm(
        input,
        input.action,
        html`<input type="hidden" name="enrolment" value="${input.sealed}" />
          ${factorNameField(t.factorName, t.defaultName)} ${codeField(t.code, false)}
          <button type="submit">${t.enrol}</button>`,
      )}
      ${addPasskeyLink(input.page, input.passkeyHref)}`,
  );
}

/** The recovery codes, once, after an enrolment. */
export function recoveryCodesPage(input: {
  readonly codes: readonly string[];
  readonly returnTo: string;
  readonly page?: PageContext | undefined;
}): string {
  const t = messagesOf(input.page).secondFactor;
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.recoveryHeading}</h1>
      <p>${t.recoveryMeans}</p>
      <ul id="recovery-codes">
        ${input.codes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      <p><a href="${input.returnTo}">${t.continue}</a></p>`,
  );
}

interface FactorListItem {
  readonly factorId: string;
  readonly kind?: 'totp' | 'webauthn';
  readonly name: string;
  readonly createdAt: number;
}

/** GET /_sso/factors: the user's factors, each with a remove button, and a link to add one. */
export function factorListPage(
  input: FormBase & {
    readonly factors: readonly FactorListItem[];
    readonly removeAction: string;
    readonly addHref: string;
    readonly addPasskeyHref?: string | undefined;
  },
): string {
  const t = messagesOf(input.page).secondFactor;
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${t.listHeading}</h1>
      ${errorLine(input.error)} ${input.factors.length === 0 ? html`<p>${t.none}</p>` : undefined}
      <ul id="factors">
        ${input.factors.map(
          (factor) =>
            html`<li>
              ${factor.name}
              ${factor.kind === 'webauthn' ? html`[${messagesOf(input.page).passkey.kind}]` : undefined}
              (${t.added} ${new Date(factor.createdAt).toISOString().slice(0, 10)})
              ${factorForm(
                input,
                input.removeAction,
                html`<input type="hidden" name="factor" value="${factor.factorId}" />
                  <button type="submit">${t.remove}</button>`,
              )}
            </li>`,
        )}
      </ul>
      <p><a href="${input.addHref}">${t.add}</a></p>
      ${addPasskeyLink(input.page, input.addPasskeyHref)}`,
  );
}
