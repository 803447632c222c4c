interface ProvisioningFieldsProps {
  readonly createUsers: boolean;
  readonly updateOnSignIn: boolean;
  readonly adoptExistingUsers: boolean;
  readonly onChange: (change: {
    createUsers?: boolean;
    updateOnSignIn?: boolean;
    adoptExistingUsers?: boolean;
  }) => void;
}

/** The provisioning policy of SPEC 5, with its defaults. */
export function ProvisioningFields(props: ProvisioningFieldsProps) {
  const { onChange } = props;
  return (
    <fieldset className="choice" id="field-provisioning" tabIndex={-1}>
      <legend>User provisioning</legend>
      <label className="inline">
        <input
          type="checkbox"
          checked={props.createUsers}
          onChange={(event) => {
            onChange({ createUsers: event.target.checked });
          }}
        />{' '}
        Create users that do not exist yet
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={props.updateOnSignIn}
          onChange={(event) => {
            onChange({ updateOnSignIn: event.target.checked });
          }}
        />{' '}
        Update mapped attributes at every sign-in
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={props.adoptExistingUsers}
          onChange={(event) => {
            onChange({ adoptExistingUsers: event.target.checked });
          }}
        />{' '}
        Sign in to users that exist but came from elsewhere (never a local administrator)
      </label>
    </fieldset>
  );
}
