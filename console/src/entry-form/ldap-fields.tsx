import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import { problemsOf } from './entry-draft';
import type { LdapDraft } from './ldap-draft';
import { ldapTextFields } from './ldap-draft';
import { TextField } from './text-field';

interface LdapFieldsProps {
  readonly ldap: LdapDraft;
  readonly problems: readonly Problem[];
  readonly onChange: (ldap: LdapDraft) => void;
}

/** The fields that must be filled; the others have defaults (docs/entries.md#ldap-directories). */
// bindDn and userFilter, or userDnTemplate: the core names the one missing.
const required: ReadonlySet<string> = new Set(['url', 'baseDn']);

/**
 * An LDAP entry's directory: where it is, the service account, where and
 * how users and their groups are found, and how groups make administrators.
 * The service account's password is the App secret of the general fields.
 */
export function LdapFields({ ldap, problems, onChange }: LdapFieldsProps) {
  const words = useI18n().t.entryForm;
  const x = words.ldap;
  return (
    <fieldset className="section">
      <legend>{x.legend}</legend>
      <p>{x.intro}</p>
      {ldapTextFields.map((name) => (
        <TextField
          key={name}
          field={`ldap.${name}`}
          label={words.fields[`ldap.${name}`]}
          value={ldap[name]}
          required={required.has(name)}
          code
          multiline={name === 'caCertificate'}
          onChange={(value) => {
            onChange({ ...ldap, [name]: value });
          }}
          problems={problemsOf(problems, `ldap.${name}`)}
          hint={<p>{x.hints[name]}</p>}
        />
      ))}
      <label className="inline" id="field-ldap-startTls">
        <input
          type="checkbox"
          checked={ldap.startTls}
          onChange={(event) => {
            onChange({ ...ldap, startTls: event.target.checked });
          }}
        />{' '}
        {words.fields['ldap.startTls']}
      </label>
      <label className="inline" id="field-ldap-nestedGroups">
        <input
          type="checkbox"
          checked={ldap.nestedGroups}
          onChange={(event) => {
            onChange({ ...ldap, nestedGroups: event.target.checked });
          }}
        />{' '}
        {words.fields['ldap.nestedGroups']}
      </label>
      <TextField
        field="groupMapping.expression"
        label={words.fields['groupMapping.expression']}
        value={ldap.groupsExpression}
        code
        onChange={(groupsExpression) => {
          onChange({ ...ldap, groupsExpression });
        }}
        problems={problemsOf(problems, 'groupMapping', true)}
        hint={<p>{x.groupsHint("JSON_GET($response, 'groups')")}</p>}
      />
      <TextField
        field="groupMapping.adminGroups"
        label={words.fields['groupMapping.adminGroups']}
        value={ldap.adminGroups}
        multiline
        code
        onChange={(adminGroups) => {
          onChange({ ...ldap, adminGroups });
        }}
        problems={[]}
        hint={<p>{x.adminGroupsHint}</p>}
      />
    </fieldset>
  );
}
