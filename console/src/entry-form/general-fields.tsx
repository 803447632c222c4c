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
            onChange({ name });
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
            <p>
              {isNew ? 'Lowercase letters, digits and hyphens; ' : ''}part of the callback URL{' '}
              <code>/_sso/callback/{draft.id === '' ? 'id' : draft.id}</code>
              {isNew ? '. It cannot change later.' : ', so it cannot change.'}
            </p>
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
