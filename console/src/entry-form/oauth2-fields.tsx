import { useI18n } from '../i18n/language';
import type { EntryModel, Problem } from '../types';
import { CallOptions } from './call-options';
import type { EntryDraft } from './entry-draft';
import { fieldId, problemsOf } from './entry-draft';
import { MappingEditor } from './mapping-editor';
import type { Disclosure } from './form-section';
import { FormSection } from './form-section';
import { UsersSection } from './provisioning-fields';
import { RowsEditor } from './rows-editor';
import { ShapeFields } from './shape-fields';
import { TemplateField } from './template-field';
import { TextField } from './text-field';

interface OAuth2FieldsProps {
  readonly draft: EntryDraft;
  readonly model: EntryModel | undefined;
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<EntryDraft>) => void;
  readonly disclosure: Disclosure;
}

/** The fields of the section "Sign-out and limits", each blank unless set. */
const limitFields = ['logoutUrl', 'timeoutMs', 'revalidateMinutes', 'revalidateGraceMinutes'];

/** The basic templates and expressions, in the order a sign-in uses them, and the options beyond. */
export function OAuth2Fields({ draft, model, problems, onChange, disclosure }: OAuth2FieldsProps) {
  const words = useI18n().t.entryForm;
  const o = words.oauth2;
  const placeholders = model?.placeholders;
  const tokenValueNames = draft.tokenValues.map((row) => row.name).filter((name) => name !== '');
  const userInfoAllowed =
    placeholders === undefined
      ? undefined
      : [
          ...placeholders.userInfoUrl,
          ...tokenValueNames.filter((name) => !placeholders.userInfoUrl.includes(name)),
        ];
  const functions =
    model === undefined ? '' : ` ${o.functions(model.functions.join(words.listSeparator))}`;
  return (
    <>
      <fieldset className="section">
        <legend>{o.authorization}</legend>
        <TemplateField
          kind="authorizeUrl"
          label={words.fields.authorizeUrl}
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
          {o.pkce}
        </label>
      </fieldset>

      <fieldset className="section">
        <legend>{o.token}</legend>
        <TemplateField
          kind="tokenUrl"
          label={words.fields.tokenUrl}
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
            {words.fields['tokenRequest.clientAuthentication']}
          </label>
          <select
            id={fieldId('tokenRequest.clientAuthentication')}
            value={draft.clientAuthentication}
            onChange={(event) => {
              onChange({ clientAuthentication: event.target.value === 'basic' ? 'basic' : 'none' });
            }}
          >
            <option value="none">{o.clientNone}</option>
            <option value="basic">{o.clientBasic}</option>
          </select>
        </div>
        <CallOptions
          field="tokenRequest"
          callName={o.tokenCall}
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
          label={words.fields.tokenParse}
          value={draft.tokenParse}
          required={draft.oidcIssuer.trim() === ''}
          code
          onChange={(tokenParse) => {
            onChange({ tokenParse });
          }}
          problems={problemsOf(problems, 'tokenParse')}
          hint={
            <p>
              {o.tokenParseHint("JSON_GET($response, 'access_token')")}
              {functions}
            </p>
          }
        />
        <RowsEditor
          field="tokenValues"
          legend={words.fields.tokenValues}
          hint={o.tokenValuesHint}
          nameKey="name"
          valueKey="expression"
          nameLabel={o.tokenValueName}
          valueLabel={o.tokenValueExpression}
          rows={draft.tokenValues}
          onChange={(tokenValues) => {
            onChange({ tokenValues });
          }}
          problems={problems}
          addLabel={o.addTokenValue}
        />
      </fieldset>

      <fieldset className="section">
        <legend>{o.userInfo}</legend>
        <TemplateField
          kind="userInfoUrl"
          label={words.fields.userInfoUrl}
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
          callName={o.userInfoCall}
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
        disclosure={disclosure}
      />

      <FormSection
        name="limits"
        title={o.signOut}
        filled={limitFields.some((field) => draft[field as keyof EntryDraft] !== '')}
        problemCount={limitFields.flatMap((field) => problemsOf(problems, field)).length}
        {...disclosure}
      >
        <TemplateField
          kind="logoutUrl"
          label={words.fields.logoutUrl}
          value={draft.logoutUrl}
          allowed={placeholders?.logoutUrl}
          problems={problems}
          onChange={(logoutUrl) => {
            onChange({ logoutUrl });
          }}
        />
        <TextField
          field="timeoutMs"
          label={o.timeout}
          type="number"
          value={draft.timeoutMs}
          placeholder="10000"
          onChange={(timeoutMs) => {
            onChange({ timeoutMs });
          }}
          problems={problemsOf(problems, 'timeoutMs')}
          hint={<p>{o.timeoutHint}</p>}
        />
        {draft.oidcIssuer.trim() === '' ? (
          <>
            <TextField
              field="revalidateMinutes"
              label={o.revalidate}
              type="number"
              value={draft.revalidateMinutes}
              placeholder={o.revalidateOff}
              onChange={(revalidateMinutes) => {
                onChange({ revalidateMinutes });
              }}
              problems={problemsOf(problems, 'revalidateMinutes')}
              hint={<p>{o.revalidateHint}</p>}
            />
            <TextField
              field="revalidateGraceMinutes"
              label={o.revalidateGrace}
              type="number"
              value={draft.revalidateGraceMinutes}
              placeholder="60"
              onChange={(revalidateGraceMinutes) => {
                onChange({ revalidateGraceMinutes });
              }}
              problems={problemsOf(problems, 'revalidateGraceMinutes')}
              hint={<p>{o.revalidateGraceHint}</p>}
            />
          </>
        ) : null}
      </FormSection>
      <UsersSection draft={draft} onChange={onChange} />
    </>
  );
}
