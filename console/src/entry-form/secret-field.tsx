import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import type { SecretDraft } from './entry-draft';
import { fieldId } from './entry-draft';
import { FieldProblems } from './field-problems';

interface SecretFieldProps {
  readonly field: string;
  readonly label: string;
  readonly secret: SecretDraft;
  readonly onChange: (secret: SecretDraft) => void;
  readonly problems: readonly Problem[];
  readonly hint: string;
}

/**
 * A write-only secret (docs/design.md#the-entry): the API never returns it, so a stored one
 * shows as "set" with the choice to replace or remove it, never its value.
 */
export function SecretField({ field, label, secret, onChange, problems, hint }: SecretFieldProps) {
  const w = useI18n().t.entryForm.secret;
  const id = fieldId(field);
  const hintId = `${id}-hint`;
  const problemsId = `${id}-problems`;
  if (secret.stored && secret.mode !== 'replace') {
    return (
      <div className="field">
        <span className="label" id={`${id}-label`}>
          {label}
        </span>
        <div className="secret-state" role="group" aria-labelledby={`${id}-label`}>
          <span className={secret.mode === 'clear' ? 'badge badge-off' : 'badge badge-on'}>
            {secret.mode === 'clear' ? w.willBeRemoved : w.set}
          </span>
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              onChange({ ...secret, mode: 'replace', value: '' });
            }}
          >
            {w.replace}
          </button>
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              onChange({ ...secret, mode: secret.mode === 'clear' ? 'keep' : 'clear' });
            }}
          >
            {secret.mode === 'clear' ? w.keepIt : w.remove}
          </button>
        </div>
        <p className="hint" id={hintId}>
          {hint} {w.neverShown}
        </p>
        <FieldProblems id={problemsId} problems={problems} />
      </div>
    );
  }
  return (
    <div className={problems.length > 0 ? 'field has-problem' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="secret-state">
        <input
          id={id}
          type="password"
          autoComplete="new-password"
          value={secret.value}
          aria-describedby={`${hintId}${problems.length > 0 ? ` ${problemsId}` : ''}`}
          aria-invalid={problems.length > 0 ? true : undefined}
          onChange={(event) => {
            onChange({ ...secret, mode: 'replace', value: event.target.value });
          }}
        />
        {secret.stored ? (
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              onChange({ ...secret, mode: 'keep', value: '' });
            }}
          >
            {w.keepStored}
          </button>
        ) : null}
      </div>
      <p className="hint" id={hintId}>
        {hint} {w.writeOnly}
      </p>
      <FieldProblems id={problemsId} problems={problems} />
    </div>
  );
}
