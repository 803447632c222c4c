import { useI18n } from '../i18n/language';
import type { Problem, TemplateKind } from '../types';
import { problemsOf } from './entry-draft';
import { TextField } from './text-field';

interface TemplateFieldProps {
  readonly kind: TemplateKind;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly problems: readonly Problem[];
  /** The placeholders the core allows in this template (GET /_sso/api/entry-model). */
  readonly allowed: readonly string[] | undefined;
  readonly required?: boolean;
  readonly postAllowed?: boolean;
}

/** A URL template with, beside it, the placeholders it may use. */
export function TemplateField(props: TemplateFieldProps) {
  const { kind, allowed } = props;
  const w = useI18n().t.entryForm.template;
  const hint = (
    <>
      {props.postAllowed === true ? <p>{w.postHint('POST')}</p> : null}
      <p className="placeholders">
        <span>{w.allowed} </span>
        {allowed === undefined ? (
          <span>{w.loading}</span>
        ) : allowed.length === 0 ? (
          <span>{w.none}</span>
        ) : (
          allowed.map((name) => <code key={name} className="chip">{`\${${name}}`}</code>)
        )}
      </p>
    </>
  );
  return (
    <TextField
      field={kind}
      label={props.label}
      value={props.value}
      // Wrapped over several lines so a long URL shows every column; a URL
      // holds no line break, so Enter adds none.
      multiline
      onChange={(value) => {
        props.onChange(value.replace(/[\r\n]+/g, ''));
      }}
      problems={problemsOf(props.problems, kind)}
      hint={hint}
      required={props.required ?? false}
      code
      placeholder="https://sso.example.com/path?param=${placeholder}"
    />
  );
}
