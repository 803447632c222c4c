import { html } from './html.js';
import { messagesOf, renderDocument } from './layout.js';
import { factorNameField } from './second-factor-pages.js';
import type { PageContext } from './layout.js';

/**
 * The passkey pages of a second factor (docs/security.md#passkeys): one
 * page for both ceremonies, whose one inline script (run by its nonce, the
 * page's Content-Security-Policy naming no other) hands the ceremony's
 * options from the form's `data-options` to navigator.credentials, and
 * posts the authenticator's answer, base64url in JSON, with the form.
 */

interface PasskeyPageInput {
  readonly mode: 'register' | 'authenticate';
  readonly action: string;
  readonly csrfToken: string;
  readonly returnTo: string;
  /** PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON. */
  readonly options: unknown;
  readonly scriptNonce: string;
  /** The other way: a one-time code. */
  readonly otherHref: string;
  readonly page?: PageContext | undefined;
  readonly error?: string | undefined;
}

export function passkeyPage(input: PasskeyPageInput): string {
  const t = messagesOf(input.page).passkey;
  const register = input.mode === 'register';
  return renderDocument(
    input.page,
    t.title,
    html`<h1>${register ? t.enrolHeading : t.verifyHeading}</h1>
      <p>${register ? t.enrolMeans : t.verifyMeans}</p>
      <p
        class="error"
        id="passkey-error"
        role="alert"
        ${input.error === undefined ? html`hidden` : undefined}
      >
        ${input.error ?? t.failed}
      </p>
      <form
        id="passkey-form"
        method="post"
        action="${input.action}"
        data-mode="${input.mode}"
        data-options="${JSON.stringify(input.options)}"
      >
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <input type="hidden" name="return_to" value="${input.returnTo}" />
        <input type="hidden" name="response" value="" />
        ${register ? factorNameField(t.name, t.defaultName) : undefined}
        <button type="submit" id="passkey-start">${register ? t.enrol : t.verify}</button>
      </form>
      <p><a href="${input.otherHref}">${register ? t.orCodeEnrol : t.orCode}</a></p>
      <script nonce="${input.scriptNonce}">
        (() => {
          const form = document.getElementById('passkey-form');
          const failed = document.getElementById('passkey-error');
          const bytes = (text) =>
            Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
              c.charCodeAt(0),
            );
          const text = (buffer) =>
            btoa(String.fromCharCode(...new Uint8Array(buffer)))
              .replace(/\\+/g, '-')
              .replace(/\\//g, '_')
              .replace(/=+$/, '');
          const credentials = (list) => (list || []).map((c) => ({ ...c, id: bytes(c.id) }));
          form.addEventListener('submit', async (event) => {
            event.preventDefault();
            const options = JSON.parse(form.dataset.options);
            options.challenge = bytes(options.challenge);
            try {
              let made;
              let response;
              if (form.dataset.mode === 'register') {
                options.user.id = bytes(options.user.id);
                options.excludeCredentials = credentials(options.excludeCredentials);
                made = await navigator.credentials.create({ publicKey: options });
                response = {
                  clientDataJSON: text(made.response.clientDataJSON),
                  attestationObject: text(made.response.attestationObject),
                  transports: made.response.getTransports ? made.response.getTransports() : [],
                };
              } else {
                options.allowCredentials = credentials(options.allowCredentials);
                made = await navigator.credentials.get({ publicKey: options });
                response = {
                  clientDataJSON: text(made.response.clientDataJSON),
                  authenticatorData: text(made.response.authenticatorData),
                  signature: text(made.response.signature),
                  ...(made.response.userHandle
                    ? { userHandle: text(made.response.userHandle) }
                    : {}),
                };
              }
              form.elements.response.value = JSON.stringify({
                id: made.id,
                rawId: text(made.rawId),
                type: made.type,
                response,
                clientExtensionResults: made.getClientExtensionResults(),
                ...(made.authenticatorAttachment
                  ? { authenticatorAttachment: made.authenticatorAttachment }
                  : {}),
              });
              form.submit();
            } catch {
              failed.hidden = false;
            }
          });
        })();
      </script>`,
  );
}
