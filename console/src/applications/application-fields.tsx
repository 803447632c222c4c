import { fieldId, problemsOf } from '../entry-form/entry-draft';
import { FieldProblems } from '../entry-form/field-problems';
import { TextField } from '../entry-form/text-field';
import { useI18n } from '../i18n/language';
import type { EntryView, Problem } from '../types';
import type { ApplicationDraft } from './application-draft';
import { UriListEditor } from './uri-list-editor';

interface ApplicationFieldsProps {
  readonly draft: ApplicationDraft;
  readonly isNew: boolean;
  /** The entries there are, to choose the allowed ones from. */
  readonly entries: readonly EntryView[];
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<ApplicationDraft>) => void;
}

/**
 * Every setting of an application (`oidcClientSettings` in
 * src/features/openid-provider/admin/oidc-clients.ts), with the client id and the
 * kind when it is registered. Each input's id is `field-` and the API field,
 * so a problem the API names lands under its input.
 */
export function ApplicationFields({
  draft,
  isNew,
  entries,
  problems,
  onChange,
}: ApplicationFieldsProps) {
  const words = useI18n().t.applications;
  return (
    <>
      <fieldset className="section">
        <legend>{words.general}</legend>
        <div className="two-columns">
          <TextField
            field="name"
            label={words.name}
            value={draft.name}
            required
            onChange={(name) => {
              onChange({ name });
            }}
            problems={problemsOf(problems, 'name')}
            hint={<p>{words.nameHint}</p>}
          />
          <TextField
            field="clientId"
            label={words.clientId}
            value={draft.clientId}
            required
            code
            readOnly={!isNew}
            onChange={(clientId) => {
              onChange({ clientId });
            }}
            problems={problemsOf(problems, 'clientId')}
            hint={<p>{words.clientIdHint}</p>}
          />
        </div>
        <fieldset className="choice" id={fieldId('public')} tabIndex={-1}>
          <legend>{words.kindLegend}</legend>
          {[false, true].map((isPublic) => (
            <label className="inline" key={String(isPublic)}>
              <input
                type="radio"
                name="application-kind"
                checked={draft.isPublic === isPublic}
                disabled={!isNew}
                onChange={() => {
                  onChange({ isPublic });
                }}
              />{' '}
              {isPublic ? words.publicChoice : words.confidentialChoice}
            </label>
          ))}
          {isNew ? null : <p className="hint">{words.kindFixed}</p>}
          <FieldProblems
            id={`${fieldId('public')}-problems`}
            problems={problemsOf(problems, 'public')}
          />
        </fieldset>
      </fieldset>
      <fieldset className="section">
        <legend>{words.addresses}</legend>
        <UriListEditor
          field="redirectUris"
          legend={words.redirectUris}
          rowLabel={words.redirectUri}
          hint={words.redirectHint}
          uris={draft.redirectUris}
          required
          problems={problems}
          onChange={(redirectUris) => {
            onChange({ redirectUris });
          }}
        />
        <UriListEditor
          field="postLogoutRedirectUris"
          legend={words.postLogoutUris}
          rowLabel={words.postLogoutUri}
          hint={words.postLogoutHint}
          uris={draft.postLogoutRedirectUris}
          problems={problems}
          onChange={(postLogoutRedirectUris) => {
            onChange({ postLogoutRedirectUris });
          }}
        />
        <TextField
          field="backchannelLogoutUri"
          label={words.backchannel}
          value={draft.backchannelLogoutUri}
          type="url"
          code
          onChange={(backchannelLogoutUri) => {
            onChange({ backchannelLogoutUri });
          }}
          problems={problemsOf(problems, 'backchannelLogoutUri')}
          hint={<p>{words.backchannelHint}</p>}
        />
        <TextField
          field="frontchannelLogoutUri"
          label={words.frontchannel}
          value={draft.frontchannelLogoutUri}
          type="url"
          code
          onChange={(frontchannelLogoutUri) => {
            onChange({ frontchannelLogoutUri });
          }}
          problems={problemsOf(problems, 'frontchannelLogoutUri')}
          hint={<p>{words.frontchannelHint}</p>}
        />
        <OnOffField
          field="frontchannelLogoutSessionRequired"
          label={words.frontchannelSessionChoice}
          draft={draft}
          problems={problems}
          onChange={onChange}
        />
      </fieldset>
      <fieldset className="section">
        <legend>{words.access}</legend>
        <AllowedEntries
          chosen={draft.allowedEntries}
          entries={entries}
          problems={problemsOf(problems, 'allowedEntries', true)}
          onChange={(allowedEntries) => {
            onChange({ allowedEntries });
          }}
        />
        <div className="two-columns">
          <TextField
            field="allowedUsers"
            label={words.allowedUsers}
            value={draft.allowedUsers}
            multiline
            code
            onChange={(allowedUsers) => {
              onChange({ allowedUsers });
            }}
            problems={problemsOf(problems, 'allowedUsers', true)}
            hint={<p>{words.allowedUsersHint}</p>}
          />
          <TextField
            field="allowedGroups"
            label={words.allowedGroups}
            value={draft.allowedGroups}
            multiline
            code
            onChange={(allowedGroups) => {
              onChange({ allowedGroups });
            }}
            problems={problemsOf(problems, 'allowedGroups', true)}
            hint={<p>{words.allowedGroupsHint}</p>}
          />
        </div>
      </fieldset>
      <fieldset className="section">
        <legend>{words.tokens}</legend>
        <OnOffField
          field="refreshTokens"
          label={words.refreshTokensChoice}
          draft={draft}
          problems={problems}
          onChange={onChange}
        />
        <fieldset className="choice" id={fieldId('subjectType')} tabIndex={-1}>
          <legend>{words.subjectLegend}</legend>
          {(['public', 'pairwise'] as const).map((subjectType) => (
            <label className="inline" key={subjectType}>
              <input
                type="radio"
                name="application-subject-type"
                value={subjectType}
                checked={draft.subjectType === subjectType}
                onChange={() => {
                  onChange({ subjectType });
                }}
              />{' '}
              {subjectType === 'public' ? words.publicSubjectChoice : words.pairwiseSubjectChoice}
            </label>
          ))}
          <FieldProblems
            id={`${fieldId('subjectType')}-problems`}
            problems={problemsOf(problems, 'subjectType')}
          />
        </fieldset>
        <OnOffField
          field="consent"
          label={words.consentChoice}
          draft={draft}
          problems={problems}
          onChange={onChange}
        />
      </fieldset>
    </>
  );
}

interface OnOffFieldProps {
  readonly field: 'refreshTokens' | 'consent' | 'frontchannelLogoutSessionRequired';
  readonly label: string;
  readonly draft: ApplicationDraft;
  readonly problems: readonly Problem[];
  readonly onChange: (change: Partial<ApplicationDraft>) => void;
}

/** A setting that is on or off: a box, and the problems the API names for it. */
function OnOffField({ field, label, draft, problems, onChange }: OnOffFieldProps) {
  return (
    <>
      <label className="inline">
        <input
          type="checkbox"
          id={fieldId(field)}
          checked={draft[field]}
          onChange={(event) => {
            onChange({ [field]: event.target.checked });
          }}
        />{' '}
        {label}
      </label>
      <FieldProblems id={`${fieldId(field)}-problems`} problems={problemsOf(problems, field)} />
    </>
  );
}

interface AllowedEntriesProps {
  readonly chosen: readonly string[];
  readonly entries: readonly EntryView[];
  readonly problems: readonly Problem[];
  readonly onChange: (chosen: readonly string[]) => void;
}

/**
 * A box per entry; an id the application names whose entry was deleted
 * since stays listed, ticked, so it can be taken off.
 */
function AllowedEntries({ chosen, entries, problems, onChange }: AllowedEntriesProps) {
  const words = useI18n().t.applications;
  const known = new Set(entries.map((entry) => entry.id));
  const choices = [
    ...entries.map((entry) => ({ id: entry.id, label: `${entry.name} (${entry.id})` })),
    ...chosen.filter((id) => !known.has(id)).map((id) => ({ id, label: words.goneEntry(id) })),
  ];
  return (
    <fieldset
      className="choice"
      id={fieldId('allowedEntries')}
      tabIndex={-1}
      aria-describedby={`${fieldId('allowedEntries')}-hint`}
    >
      <legend>{words.allowedEntries}</legend>
      <p className="hint" id={`${fieldId('allowedEntries')}-hint`}>
        {choices.length === 0 ? words.noEntries : words.allowedEntriesHint}
      </p>
      {choices.map((choice) => (
        <label className="inline" key={choice.id}>
          <input
            type="checkbox"
            checked={chosen.includes(choice.id)}
            onChange={(event) => {
              onChange(
                event.target.checked
                  ? [...chosen, choice.id]
                  : chosen.filter((id) => id !== choice.id),
              );
            }}
          />{' '}
          {choice.label}
        </label>
      ))}
      <FieldProblems id={`${fieldId('allowedEntries')}-problems`} problems={problems} />
    </fieldset>
  );
}
