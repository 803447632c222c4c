import { useState } from 'react';
import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import type { Row } from './entry-draft';
import { problemsOf } from './entry-draft';
import { mappingTextFromRows, rowsFromMappingText } from './mapping-rows';
import { RowsEditor } from './rows-editor';
import { TextField } from './text-field';

interface MappingEditorProps {
  readonly mode: 'table' | 'text';
  readonly rows: readonly Row[];
  readonly text: string;
  readonly attributes: readonly string[];
  readonly problems: readonly Problem[];
  readonly onChange: (change: {
    mode: 'table' | 'text';
    rows: readonly Row[];
    text: string;
  }) => void;
}

const field = 'userInfoParse';

/**
 * `userInfoParse` as a table or as the text form (docs/entries.md#user-mapping), one
 * `attribute = expression` per line. Switching converts with the core's own
 * reader and printer, so what the table shows is what the text means.
 */
export function MappingEditor({
  mode,
  rows,
  text,
  attributes,
  problems,
  onChange,
}: MappingEditorProps) {
  const words = useI18n().t.entryForm;
  const m = words.mapping;
  const [switchProblem, setSwitchProblem] = useState<string | undefined>();
  const toText = () => {
    setSwitchProblem(undefined);
    onChange({ mode: 'text', rows, text: mappingTextFromRows(rows) });
  };
  const toTable = () => {
    const table = rowsFromMappingText(text);
    if (!table.ok) {
      setSwitchProblem(m.cannotSwitch(table.problem));
      return;
    }
    setSwitchProblem(undefined);
    onChange({ mode: 'table', text, rows: table.rows });
  };
  return (
    <div className="mapping-editor">
      <div className="segmented" role="group" aria-label={m.editAs}>
        <button type="button" aria-pressed={mode === 'table'} onClick={toTable}>
          {m.table}
        </button>
        <button type="button" aria-pressed={mode === 'text'} onClick={toText}>
          {m.text}
        </button>
      </div>
      <div role="status" aria-live="polite">
        {switchProblem === undefined ? null : (
          <p className="status status-error">{switchProblem}</p>
        )}
      </div>
      {mode === 'table' ? (
        <RowsEditor
          field={field}
          legend={words.fields.userInfoParse}
          hint={m.hint}
          nameKey="attribute"
          valueKey="expression"
          nameLabel={m.attribute}
          valueLabel={m.expression}
          rows={rows}
          nameOptions={attributes}
          onChange={(next) => {
            onChange({ mode, rows: next, text });
          }}
          problems={problems}
          addLabel={m.add}
          requiredLabel={m.required}
        />
      ) : (
        <TextField
          field={field}
          label={m.textLabel}
          value={text}
          multiline
          code
          onChange={(next) => {
            onChange({ mode, rows, text: next });
          }}
          problems={problemsOf(problems, field, true)}
          hint={
            <p>
              {m.textHint(
                'attribute = expression',
                "userId = JSON_GET($response, 'id')",
                '#',
                attributes.join(words.listSeparator),
              )}
            </p>
          }
        />
      )}
    </div>
  );
}
