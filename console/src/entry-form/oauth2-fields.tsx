import type { EntryModel, Problem } from '../types';
import { CallOptions } from './call-options';
import type { EntryDraft } from './entry-draft';
import { fieldId, problemsOf } from './entry-draft';
import { MappingEditor } from './mapping-editor';
import { ProvisioningFields } from './provisioning-fields';
import { RowsEditor } from './rows-editor';
import { ShapeFields } from './shape-fields';
import { TemplateField } from './template-field';
import { TextField } from './text-field';

interface OAuth2FieldsProps {
  readonly draft: EntryDraft;
  readonly model: EntryModel | undefined;
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<EntryDraft>) => void;
}

/** The basic templates and expressions, in the order a sign-in uses them, and the options beyond. */
export function OAuth2Fields({ draft, model, problems, onChange }: OAuth2FieldsProps) {
  const placeholders = model?.placeholders;
  const tokenValueNames = draft.tokenValues.map((row) => row.name).filter((name) => name !== '');
  const userInfoAllowed =
    placeholders === undefined
      ? undefined
      : [
          ...placeholders.userInfoUrl,
          ...tokenValueNames.filter((name) => !placeholders.userInfoUrl.includes(name)),
        ];
  const functions = model === undefined ? '' : ` Functions: ${model.functions.join(', ')}.`;
  return (
    <>
      <fieldset className="section">
        <legend>1. Authorization (the browser goes here)</legend>
        <TemplateField
          kind="authorizeUrl"
          label="Authorization URL"
          value={draft.authorizeUrl}
          required={draft.oidcIssuer.trim() === ''}
          allowed={placeholders?.authorizeUrl}
          problems={problems}
          onChange={(authorizeUrl) => {
            onChange({ authorizeUrl });
          }}
        />
        <label className="inline" id={fieldId('pkce')}>
          <input
            type="checkbox"
            checked={draft.pkce}
            onChange={(event) => {
              onChange({ pkce: event.target.checked });
            }}
          />{' '}
          PKCE (S256): add a code challenge here and its verifier to the token call
        </label>
      </fieldset>

      <fieldset className="section">
        <legend>2. Access token (server to server)</legend>
        <TemplateField
          kind="tokenUrl"
          label="Token URL"
          value={draft.tokenUrl}
          required={draft.oidcIssuer.trim() === ''}
          postAllowed
          allowed={placeholders?.tokenUrl}
          problems={problems}
          onChange={(tokenUrl) => {
            onChange({ tokenUrl });
          }}
        />
        <div className="field">
          <label htmlFor={fieldId('tokenRequest.clientAuthentication')}>
            Client authentication
          </label>
          <select
            id={fieldId('tokenRequest.clientAuthentication')}
            value={draft.clientAuthentication}
            onChange={(event) => {
              onChange({ clientAuthentication: event.target.value === 'basic' ? 'basic' : 'none' });
            }}
          >
            <option value="none">None (the template carries what the server needs)</option>
            <option value="basic">HTTP Basic with the app id and secret (RFC 6749 §2.3.1)</option>
          </select>
        </div>
        <CallOptions
          field="tokenRequest"
          callName="Token call"
          url={draft.tokenUrl}
          call={draft.tokenCall}
          allowed={placeholders?.tokenUrl}
          problems={problems}
          onChange={(tokenCall) => {
            onChange({ tokenCall });
          }}
        />
        <TextField
          field="tokenParse"
          label="Token parsing"
          value={draft.tokenParse}
          required={draft.oidcIssuer.trim() === ''}
          code
          onChange={(tokenParse) => {
            onChange({ tokenParse });
          }}
          problems={problemsOf(problems, 'tokenParse')}
          hint={
            <p>
              An expression over <code>$response</code> that yields the access token, e.g.{' '}
              <code>JSON_GET($response, &apos;access_token&apos;)</code>.{functions}
            </p>
          }
        />
        <RowsEditor
          field="tokenValues"
          legend="Token values"
          hint="Other values of the token response (e.g. an openid), usable as ${name} in the user-info call."
          nameKey="name"
          valueKey="expression"
          nameLabel="Token value name"
          valueLabel="Token value expression"
          rows={draft.tokenValues}
          onChange={(tokenValues) => {
            onChange({ tokenValues });
          }}
          problems={problems}
          addLabel="Add a token value"
        />
      </fieldset>

      <fieldset className="section">
        <legend>3. User info (server to server)</legend>
        <TemplateField
          kind="userInfoUrl"
          label="User-info URL"
          value={draft.userInfoUrl}
          required={draft.oidcIssuer.trim() === ''}
          postAllowed
          allowed={userInfoAllowed}
          problems={problems}
          onChange={(userInfoUrl) => {
            onChange({ userInfoUrl });
          }}
        />
        <CallOptions
          field="userInfoRequest"
          callName="User-info call"
          url={draft.userInfoUrl}
          call={draft.userInfoCall}
          allowed={userInfoAllowed}
          problems={problems}
          onChange={(userInfoCall) => {
            onChange({ userInfoCall });
          }}
        />
        <MappingEditor
          mode={draft.mappingMode}
          rows={draft.mappingRows}
          text={draft.mappingText}
          attributes={model?.attributes ?? []}
          problems={problems}
          onChange={({ mode, rows, text }) => {
            onChange({ mappingMode: mode, mappingRows: rows, mappingText: text });
          }}
        />
      </fieldset>

      <ShapeFields
        shapes={draft.shapes}
        problems={problems}
        onChange={(shapes) => {
          onChange({ shapes });
        }}
      />

      <fieldset className="section">
        <legend>4. Sign-out and limits</legend>
        <TemplateField
          kind="logoutUrl"
          label="Logout URL"
          value={draft.logoutUrl}
          allowed={placeholders?.logoutUrl}
          problems={problems}
          onChange={(logoutUrl) => {
            onChange({ logoutUrl });
          }}
        />
        <TextField
          field="timeoutMs"
          label="Time-out per call (milliseconds)"
          type="number"
          value={draft.timeoutMs}
          placeholder="10000"
          onChange={(timeoutMs) => {
            onChange({ timeoutMs });
          }}
          problems={problemsOf(problems, 'timeoutMs')}
          hint={<p>From 100 to 60000; 10000 when left blank.</p>}
        />
        {draft.oidcIssuer.trim() === '' ? (
          <>
            <TextField
              field="revalidateMinutes"
              label="Re-check sessions every (minutes)"
              type="number"
              value={draft.revalidateMinutes}
              placeholder="off"
              onChange={(revalidateMinutes) => {
                onChange({ revalidateMinutes });
              }}
              problems={problemsOf(problems, 'revalidateMinutes')}
              hint={
                <p>
                  Blank: off. Otherwise a session's next use after so many minutes calls user info
                  again with its access token; a refusal or a disabled user ends the session.
                </p>
              }
            />
            <TextField
              field="revalidateGraceMinutes"
              label="Grace when the provider is unreachable (minutes)"
              type="number"
              value={draft.revalidateGraceMinutes}
              placeholder="60"
              onChange={(revalidateGraceMinutes) => {
                onChange({ revalidateGraceMinutes });
              }}
              problems={problemsOf(problems, 'revalidateGraceMinutes')}
              hint={
                <p>How long past the due re-check a session survives the provider being down.</p>
              }
            />
          </>
        ) : null}
        <ProvisioningFields
          createUsers={draft.createUsers}
          updateOnSignIn={draft.updateOnSignIn}
          adoptExistingUsers={draft.adoptExistingUsers}
          ownUserIds={draft.ownUserIds}
          onChange={(change) => {
            onChange(change);
          }}
        />
      </fieldset>
    </>
  );
}
