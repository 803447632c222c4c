import type { ReactNode } from 'react';
import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import { fieldId } from './entry-draft';
import { FieldProblems } from './field-problems';

interface TextFieldProps {
  /** The API field name: the input's id and where its problems are found. */
  readonly field: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The administrator left the field: from then on its problems show. */
  readonly onBlur?: () => void;
  readonly problems: readonly Problem[];
  readonly hint?: ReactNode;
  readonly required?: boolean;
  readonly multiline?: boolean;
  readonly code?: boolean;
  readonly type?: 'text' | 'url' | 'number' | 'password';
  readonly placeholder?: string;
  readonly readOnly?: boolean;
  readonly autoComplete?: string;
}

/**
 * A labelled input with its hint and its problems, both tied to it with
 * aria-describedby; aria-invalid while it has a problem.
 */
export function TextField(props: TextFieldProps) {
  const { field, label, value, onChange, problems, hint, required = false } = props;
  const words = useI18n().t.entryForm;
  const id = fieldId(field);
  const hintId = `${id}-hint`;
  const problemsId = `${id}-problems`;
  const describedBy = [
    hint === undefined ? undefined : hintId,
    problems.length === 0 ? undefined : problemsId,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  const shared = {
    id,
    value,
    required,
    readOnly: props.readOnly,
    placeholder: props.placeholder,
    spellCheck: props.code === true ? false : undefined,
    className: props.code === true ? 'code-input' : undefined,
    'aria-invalid': problems.length > 0 ? true : undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
    onBlur: props.onBlur,
  };
  return (
    <div className={problems.length > 0 ? 'field has-problem' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required ? <span className="required"> {words.required}</span> : null}
      </label>
      {props.multiline === true ? (
        <textarea
          {...shared}
          rows={Math.min(12, Math.max(3, value.split('\n').length + 1))}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      ) : (
        <input
          {...shared}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete ?? 'off'}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      )}
      {hint === undefined ? null : (
        <div className="hint" id={hintId}>
          {hint}
        </div>
      )}
      <FieldProblems id={problemsId} problems={problems} />
    </div>
  );
}
