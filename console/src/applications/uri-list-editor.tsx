import { fieldId, problemsOf } from '../entry-form/entry-draft';
import { FieldProblems } from '../entry-form/field-problems';
import { useI18n } from '../i18n/language';
import type { Problem } from '../types';

interface UriListEditorProps {
  /** The API list field, e.g. `redirectUris`; row `i` is `redirectUris[i]`. */
  readonly field: string;
  readonly legend: string;
  /** Each row's label, numbered: `Redirect URI 2`. */
  readonly rowLabel: string;
  readonly hint: string;
  readonly uris: readonly string[];
  readonly onChange: (uris: readonly string[]) => void;
  /** The problems in the form's field names (`redirectUris[1]`, `redirectUris`). */
  readonly problems: readonly Problem[];
  readonly required?: boolean;
}

/**
 * A list of URIs, one input per row with its own label and problems, rows
 * added and removed by buttons (an application registers several redirect
 * URIs, each compared exactly).
 */
export function UriListEditor(props: UriListEditorProps) {
  const { field, uris, onChange, problems } = props;
  const words = useI18n().t.applications;
  return (
    <fieldset className="uri-list" id={fieldId(field)} tabIndex={-1}>
      <legend>
        {props.legend}
        {props.required === true ? <span className="required"> {words.required}</span> : null}
      </legend>
      <p className="hint" id={`${fieldId(field)}-hint`}>
        {props.hint}
      </p>
      {uris.length === 0 ? <p className="empty">{words.noUris}</p> : null}
      {uris.map((uri, index) => {
        const rowField = `${field}[${index}]`;
        const id = fieldId(rowField);
        const rowProblems = problemsOf(problems, rowField, true);
        return (
          <div className={rowProblems.length > 0 ? 'uri-row has-problem' : 'uri-row'} key={index}>
            <label htmlFor={id}>
              {props.rowLabel} {index + 1}
            </label>
            <input
              id={id}
              type="url"
              className="code-input"
              value={uri}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={rowProblems.length > 0 ? true : undefined}
              aria-describedby={
                rowProblems.length > 0 ? `${id}-problems` : `${fieldId(field)}-hint`
              }
              onChange={(event) => {
                onChange(uris.map((each, at) => (at === index ? event.target.value : each)));
              }}
            />
            <button
              type="button"
              className="button secondary small icon remove-row"
              aria-label={words.removeUri(props.rowLabel, index + 1)}
              onClick={() => {
                onChange(uris.filter((_, at) => at !== index));
              }}
            >
              ×
            </button>
            <FieldProblems id={`${id}-problems`} problems={rowProblems} />
          </div>
        );
      })}
      <FieldProblems id={`${fieldId(field)}-problems`} problems={problemsOf(problems, field)} />
      <button
        type="button"
        className="button secondary small"
        onClick={() => {
          onChange([...uris, '']);
        }}
      >
        {words.addUri}
      </button>
    </fieldset>
  );
}
