import { useI18n } from '../i18n/language';
import { Link } from '../link';
import type { Status } from './status-line';
import { StatusLine } from './status-line';

interface FormActionsProps {
  readonly saving: boolean;
  /** The submit button's words while not saving: create or save. */
  readonly submit: string;
  readonly savingLabel: string;
  /** Where Cancel leads (the form's unsaved-work guard asks first). */
  readonly cancelTo: string;
  readonly status: Status | undefined;
}

/** A form's submit and Cancel, and the outcome of its last save beside them. */
export function FormActions({ saving, submit, savingLabel, cancelTo, status }: FormActionsProps) {
  const { t } = useI18n();
  return (
    <div className="form-actions">
      <button type="submit" className="button" disabled={saving}>
        {saving ? savingLabel : submit}
      </button>
      <Link to={cancelTo} className="button secondary">
        {t.shell.cancel}
      </Link>
      <StatusLine status={status} />
    </div>
  );
}
