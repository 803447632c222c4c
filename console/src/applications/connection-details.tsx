import { useState } from 'react';
import { embeddedPublicUrl } from '../api';
import { publicOrigin } from '../entry-form/form-assist';
import { useI18n } from '../i18n/language';
import type { ApplicationView } from '../types';
import { providerAddresses, providerScopes } from './application-draft';

/**
 * What an administrator pastes into the application, read-only: where the
 * provider is (from the configured public URL, even when the console was
 * opened at another address), the client id, how it authenticates, the
 * scopes, and its redirect URIs as they must be sent.
 */
export function ConnectionDetails({ client }: { readonly client: ApplicationView }) {
  const words = useI18n().t.applications;
  const at = providerAddresses(publicOrigin(embeddedPublicUrl(), window.location.origin));
  const rows = [
    ['issuer', words.issuer, at.issuer],
    ['discovery', words.discovery, at.discovery],
    ['client-id', words.clientId, client.clientId],
    ['scopes', words.scopes, providerScopes],
    ['authorization', words.authorization, at.authorization],
    ['token', words.token, at.token],
    ['userinfo', words.userinfo, at.userinfo],
    ['end-session', words.endSession, at.endSession],
  ] as const;
  return (
    <section className="section connection-details" aria-labelledby="connection-heading">
      <h2 id="connection-heading">{words.connection}</h2>
      <p className="hint">{words.connectionLead}</p>
      <dl>
        {rows.map(([name, label, value]) => (
          <div key={name}>
            <dt>{label}</dt>
            <dd>
              <CopyableValue id={`connection-${name}`} label={label} value={value} />
            </dd>
          </div>
        ))}
        <div>
          <dt>{words.authentication}</dt>
          <dd id="connection-authentication">
            {client.public ? words.publicMethod : words.secretMethods}
          </dd>
        </div>
      </dl>
      <p>{words.redirectReminder}</p>
      <ul className="connection-redirects">
        {client.redirectUris.map((uri) => (
          <li key={uri}>
            <code>{uri}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CopyableValue(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
}) {
  const words = useI18n().t.applications;
  const [copied, setCopied] = useState(false);
  return (
    <>
      <code id={props.id}>{props.value}</code>{' '}
      <button
        type="button"
        className="button secondary small"
        aria-label={words.copyNamed(props.label)}
        onClick={() => {
          void navigator.clipboard.writeText(props.value).then(() => {
            setCopied(true);
          });
        }}
      >
        {copied ? words.copied : words.copy}
      </button>
    </>
  );
}
