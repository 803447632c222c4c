import { useState } from 'react';
import { callbackUrl, idFromName } from './form-assist';
import type { Problem } from '../types';
import type { EntryDraft } from './entry-draft';
import { problemsOf } from './entry-draft';
import { SecretField } from './secret-field';
import { TextField } from './text-field';

interface GeneralFieldsProps {
  readonly draft: EntryDraft;
  readonly isNew: boolean;
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<EntryDraft>) => void;
}

/** Type, name, id, switches and the credentials the server gave the gateway. */
export function GeneralFields({ draft, isNew, problems, onChange }: GeneralFieldsProps) {
  return (
    <fieldset className="section">
      <legend>Entry</legend>
      <fieldset className="choice" id="field-type" tabIndex={-1}>
        <legend>Type</legend>
        <label className="inline">
          <input
            type="radio"
            name="entry-type"
            checked={draft.type === 'oauth2'}
            onChange={() => {
              onChange({ type: 'oauth2' });
            }}
          />{' '}
          OAuth2 server (URL templates and expressions)
        </label>
        <label className="inline">
          <input
            type="radio"
            name="entry-type"
            checked={draft.type === 'extension'}
            onChange={() => {
              onChange({ type: 'extension' });
            }}
          />{' '}
          Extension service (for servers the templates cannot describe)
        </label>
      </fieldset>
      <div className="two-columns">
        <TextField
          field="name"
          label="Name"
          value={draft.name}
          required
          onChange={(name) => {
            // A new entry's id follows its name until the administrator types one.
            const following = isNew && draft.id === idFromName(draft.name);
            onChange(following ? { name, id: idFromName(name) } : { name });
          }}
          problems={problemsOf(problems, 'name')}
          hint={<p>The label on the sign-in page.</p>}
        />
        <TextField
          field="id"
          label="Id"
          value={draft.id}
          required
          code
          readOnly={!isNew}
          onChange={(id) => {
            onChange({ id });
          }}
          problems={problemsOf(problems, 'id')}
          hint={
            <>
              <p>
                {isNew ? 'Suggested from the name; lowercase letters, digits and hyphens. ' : ''}
                Part of the callback URL
                {isNew ? ', so it cannot change later.' : ', so it cannot change.'}
              </p>
              <CallbackUrl id={draft.id} />
            </>
          }
        />
      </div>
      <div className="checks">
        <label className="inline">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => {
              onChange({ enabled: event.target.checked });
            }}
          />{' '}
          Enabled: users can sign in with it
        </label>
        <label className="inline" id="field-isDefault">
          <input
            type="checkbox"
            checked={draft.isDefault}
            onChange={(event) => {
              onChange({ isDefault: event.target.checked });
            }}
          />{' '}
          Default: unsigned users are sent straight to it (silent sign-in)
        </label>
      </div>
      <div className="two-columns">
        <TextField
          field="appid"
          label="App id"
          value={draft.appid}
          code
          onChange={(appid) => {
            onChange({ appid });
          }}
          problems={problemsOf(problems, 'appid')}
          hint={
            <p>
              The identifier the server gave the gateway: <code>{'${appid}'}</code>.
            </p>
          }
        />
        <SecretField
          field="appsecret"
          label="App secret"
          secret={draft.appsecret}
          onChange={(appsecret) => {
            onChange({ appsecret });
          }}
          problems={problemsOf(problems, 'appsecret')}
          hint="Stored encrypted: ${app_secret}."
        />
      </div>
    </fieldset>
  );
}

/**
 * The full callback URL to register at the third-party server, with a copy
 * button: the console is reached at the gateway's public address.
 */
function CallbackUrl({ id }: { readonly id: string }) {
  const [copied, setCopied] = useState(false);
  const url = callbackUrl(window.location.origin, id);
  return (
    <p className="callback-url">
      Callback URL to register at the server: <code id="callback-url">{url}</code>{' '}
      <button
        type="button"
        className="button secondary small"
        disabled={id === ''}
        onClick={() => {
          void navigator.clipboard.writeText(url).then(() => {
            setCopied(true);
          });
        }}
      >
        Copy
      </button>
      <span role="status">{copied ? ' Copied.' : ''}</span>
    </p>
  );
}
