import type { ReactNode } from 'react';

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

/** The provisioning policy (docs/design.md#users-and-provisioning), with its defaults. */
export function ProvisioningFields(props: ProvisioningFieldsProps) {
  const { onChange } = props;
  return (
    <fieldset className="choice" id="field-provisioning" tabIndex={-1}>
      <legend>User provisioning</legend>
      <Checkbox
        checked={props.createUsers}
        onChange={(createUsers) => {
          onChange({ createUsers });
        }}
      >
        Create users that do not exist yet
      </Checkbox>
      <Checkbox
        checked={props.updateOnSignIn}
        onChange={(updateOnSignIn) => {
          onChange({ updateOnSignIn });
        }}
      >
        Update mapped attributes at every sign-in
      </Checkbox>
      <Checkbox
        checked={props.adoptExistingUsers}
        onChange={(adoptExistingUsers) => {
          onChange({ adoptExistingUsers });
        }}
      >
        Sign in to users that exist but came from elsewhere (never a local administrator)
      </Checkbox>
      <Checkbox
        checked={props.ownUserIds}
        onChange={(ownUserIds) => {
          onChange({ ownUserIds });
        }}
      >
        Keep this entry&apos;s user ids apart from other entries&apos;
      </Checkbox>
      <p className="hint">
        The same user id from another entry is then another user. Users are known, and sent to
        applications, as <code>entry-id:user-id</code>. Choose it before anyone signs in: a change
        makes new users.
      </p>
    </fieldset>
  );
}

function Checkbox(props: {
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly children: ReactNode;
}) {
  return (
    <label className="inline">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(event) => {
          props.onChange(event.target.checked);
        }}
      />{' '}
      {props.children}
    </label>
  );
}
