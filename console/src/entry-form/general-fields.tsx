import { useState } from 'react';
import { entryKindOf, entryKinds } from '../entry-kinds/registry';
import { useI18n } from '../i18n/language';
import { entryCallbackUrl } from './entry-callback-url';
import { idFromName } from './form-assist';
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
  const { t } = useI18n();
  const words = t.entryForm;
  const g = words.general;
  return (
    <fieldset className="section">
      <legend>{g.legend}</legend>
      <fieldset className="choice" id="field-type" tabIndex={-1}>
        <legend>{words.fields.type}</legend>
        {entryKinds.map((kind) => (
          <label className="inline" key={kind.id}>
            <input
              type="radio"
              name="entry-type"
              checked={entryKindOf(draft) === kind}
              onChange={() => {
                onChange({ type: kind.id });
              }}
            />{' '}
            {kind.label(t)}
          </label>
        ))}
      </fieldset>
      <div className="two-columns">
        <TextField
          field="name"
          label={words.fields.name}
          value={draft.name}
          required
          onChange={(name) => {
            // A new entry's id follows its name until the administrator types one.
            const following = isNew && draft.id === idFromName(draft.name);
            onChange(following ? { name, id: idFromName(name) } : { name });
          }}
          problems={problemsOf(problems, 'name')}
          hint={<p>{g.nameHint}</p>}
        />
        <TextField
          field="id"
          label={words.fields.id}
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
              <p>{isNew ? g.idHintNew : g.idHintStored}</p>
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
          {g.enabled}
        </label>
        <label className="inline" id="field-isDefault">
          <input
            type="checkbox"
            checked={draft.isDefault}
            onChange={(event) => {
              onChange({ isDefault: event.target.checked });
            }}
          />{' '}
          {g.isDefault}
        </label>
      </div>
      <div className="two-columns">
        <TextField
          field="appid"
          label={words.fields.appid}
          value={draft.appid}
          code
          onChange={(appid) => {
            onChange({ appid });
          }}
          problems={problemsOf(problems, 'appid')}
          hint={<p>{g.appidHint('${appid}')}</p>}
        />
        <SecretField
          field="appsecret"
          label={words.fields.appsecret}
          secret={draft.appsecret}
          onChange={(appsecret) => {
            onChange({ appsecret });
          }}
          problems={problemsOf(problems, 'appsecret')}
          hint={g.appsecretHint('${app_secret}')}
        />
      </div>
    </fieldset>
  );
}

/**
 * The full callback URL to register at the third-party server, with a copy
 * button: built from the gateway's configured public URL.
 */
function CallbackUrl({ id }: { readonly id: string }) {
  const g = useI18n().t.entryForm.general;
  const [copied, setCopied] = useState(false);
  const url = entryCallbackUrl(id);
  return (
    <p className="callback-url">
      {g.callbackUrl} <code id="callback-url">{url}</code>{' '}
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
        {g.copy}
      </button>
      <span role="status">{copied ? ` ${g.copied}` : ''}</span>
    </p>
  );
}
