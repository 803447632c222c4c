import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import type { Row } from './entry-draft';
import { fieldId, problemsOf } from './entry-draft';
import { FieldProblems } from './field-problems';
import { withRequired } from './mapping-rows';

interface RowsEditorProps {
  /** The API list field, e.g. `tokenRequest.headers`; rows are `field[i].nameKey`. */
  readonly field: string;
  readonly legend: string;
  readonly nameKey: string;
  readonly valueKey: string;
  readonly nameLabel: string;
  readonly valueLabel: string;
  readonly rows: readonly Row[];
  readonly onChange: (rows: readonly Row[]) => void;
  readonly problems: readonly Problem[];
  readonly addLabel: string;
  /** Suggestions for the name column (a datalist). */
  readonly nameOptions?: readonly string[];
  readonly hint?: string;
  /**
   * A "required" box on each row, under this label (the user-info mapping's
   * `required` marker, docs/entries.md#user-mapping); absent: no box.
   */
  readonly requiredLabel?: string;
}

/**
 * A list of name/value pairs as a table of inputs: request headers, token
 * values, user-info mappings. Each input has its own label (visually the
 * column heading) and its own problems.
 */
export function RowsEditor(props: RowsEditorProps) {
  const { field, rows, onChange, problems } = props;
  const words = useI18n().t.entryForm.rows;
  const listId = `${fieldId(field)}-options`;
  const update = (index: number, row: Row) => {
    onChange(rows.map((current, at) => (at === index ? row : current)));
  };
  const ownProblems = problemsOf(problems, field);
  return (
    <fieldset className="rows-editor" id={fieldId(field)} tabIndex={-1}>
      <legend>{props.legend}</legend>
      {props.hint === undefined ? null : <p className="hint">{props.hint}</p>}
      {props.nameOptions === undefined ? null : (
        <datalist id={listId}>
          {props.nameOptions.map((option) => (
            <option key={option} value={option} />
          ))}
        </datalist>
      )}
      {rows.length === 0 ? <p className="empty">{words.none}</p> : null}
      {rows.map((row, index) => {
        const nameField = `${field}[${index}].${props.nameKey}`;
        const valueField = `${field}[${index}].${props.valueKey}`;
        const rowProblems = problemsOf(problems, `${field}[${index}]`, true);
        return (
          <div
            className={
              props.requiredLabel === undefined ? 'row-inputs' : 'row-inputs with-required'
            }
            key={index}
          >
            <div className="row-name">
              <label htmlFor={fieldId(nameField)}>
                {props.nameLabel} {index + 1}
              </label>
              <input
                id={fieldId(nameField)}
                value={row.name}
                list={props.nameOptions === undefined ? undefined : listId}
                spellCheck={false}
                autoComplete="off"
                aria-invalid={problemsOf(problems, nameField).length > 0 ? true : undefined}
                onChange={(event) => {
                  update(index, { ...row, name: event.target.value });
                }}
              />
            </div>
            <div className="row-value">
              <label htmlFor={fieldId(valueField)}>
                {props.valueLabel} {index + 1}
              </label>
              <input
                id={fieldId(valueField)}
                value={row.value}
                className="code-input"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={
                  // A header's placeholder problem is the row's (`headers[0]`): it sits in the value.
                  problemsOf(problems, valueField).length > 0 ||
                  problemsOf(problems, `${field}[${index}]`).length > 0
                    ? true
                    : undefined
                }
                aria-describedby={
                  rowProblems.length === 0 ? undefined : `${fieldId(field)}-${index}-problems`
                }
                onChange={(event) => {
                  update(index, { ...row, value: event.target.value });
                }}
              />
            </div>
            {props.requiredLabel === undefined ? null : (
              <label className="inline row-required">
                <input
                  type="checkbox"
                  checked={row.required === true}
                  onChange={(event) => {
                    update(index, withRequired(row, event.target.checked));
                  }}
                />{' '}
                {props.requiredLabel}
                <span className="visually-hidden">
                  {' '}
                  ({props.nameLabel.toLowerCase()} {index + 1})
                </span>
              </label>
            )}
            <button
              type="button"
              className="button secondary small icon remove-row"
              aria-label={words.remove(props.nameLabel.toLowerCase(), index + 1)}
              onClick={() => {
                onChange(rows.filter((_, at) => at !== index));
              }}
            >
              ×
            </button>
            <FieldProblems id={`${fieldId(field)}-${index}-problems`} problems={rowProblems} />
          </div>
        );
      })}
      <FieldProblems id={`${fieldId(field)}-problems`} problems={ownProblems} />
      <button
        type="button"
        className="button secondary small"
        onClick={() => {
          onChange([...rows, { name: '', value: '' }]);
        }}
      >
        {props.addLabel}
      </button>
    </fieldset>
  );
}
