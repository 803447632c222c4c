import type { ReactNode } from 'react';
import { useI18n } from '../i18n/language';
import type { EntryDraft } from './entry-draft';
import { fieldId } from './entry-draft';

interface ProvisioningFieldsProps {
  readonly createUsers: boolean;
  readonly updateOnSignIn: boolean;
  readonly adoptExistingUsers: boolean;
  readonly ownUserIds: boolean;
  readonly onChange: (change: {
    createUsers?: boolean;
    updateOnSignIn?: boolean;
    adoptExistingUsers?: boolean;
    ownUserIds?: boolean;
  }) => void;
}

/** The section "Users": the provisioning policy, for either type of entry. */
export function UsersSection({
  draft,
  onChange,
}: {
  readonly draft: EntryDraft;
  readonly onChange: (change: Partial<EntryDraft>) => void;
}) {
  const words = useI18n().t.entryForm;
  return (
    <fieldset className="section">
      <legend>{words.users}</legend>
      <ProvisioningFields
        createUsers={draft.createUsers}
        updateOnSignIn={draft.updateOnSignIn}
        adoptExistingUsers={draft.adoptExistingUsers}
        ownUserIds={draft.ownUserIds}
        onChange={onChange}
      />
    </fieldset>
  );
}

/** The provisioning policy (docs/design.md#users-and-provisioning), with its defaults. */
function ProvisioningFields(props: ProvisioningFieldsProps) {
  const { onChange } = props;
  const p = useI18n().t.entryForm.provisioning;
  return (
    <fieldset className="choice" id="field-provisioning" tabIndex={-1}>
      <legend>{p.legend}</legend>
      <Checkbox
        checked={props.createUsers}
        onChange={(createUsers) => {
          onChange({ createUsers });
        }}
      >
        {p.createUsers}
      </Checkbox>
      <Checkbox
        checked={props.updateOnSignIn}
        onChange={(updateOnSignIn) => {
          onChange({ updateOnSignIn });
        }}
      >
        {p.updateOnSignIn}
      </Checkbox>
      <Checkbox
        field="provisioning.adoptExistingUsers"
        checked={props.adoptExistingUsers}
        onChange={(adoptExistingUsers) => {
          onChange({ adoptExistingUsers });
        }}
      >
        {p.adoptExistingUsers}
      </Checkbox>
      <Checkbox
        field="provisioning.userIdScope"
        checked={props.ownUserIds}
        onChange={(ownUserIds) => {
          onChange({ ownUserIds });
        }}
      >
        {p.ownUserIds}
      </Checkbox>
      <p className="hint">{p.ownUserIdsHint('entry-id:user-id')}</p>
    </fieldset>
  );
}

function Checkbox(props: {
  /** The API field, for links that focus the box (the test sign-in's account_conflict). */
  readonly field?: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly children: ReactNode;
}) {
  return (
    <label className="inline">
      <input
        type="checkbox"
        id={props.field === undefined ? undefined : fieldId(props.field)}
        checked={props.checked}
        onChange={(event) => {
          props.onChange(event.target.checked);
        }}
      />{' '}
      {props.children}
    </label>
  );
}
