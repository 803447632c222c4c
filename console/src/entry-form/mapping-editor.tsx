import { useState } from 'react';
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
  const [switchProblem, setSwitchProblem] = useState<string | undefined>();
  const toText = () => {
    setSwitchProblem(undefined);
    onChange({ mode: 'text', rows, text: mappingTextFromRows(rows) });
  };
  const toTable = () => {
    const table = rowsFromMappingText(text);
    if (!table.ok) {
      setSwitchProblem(
        `The text cannot be shown as a table yet: ${table.problem}. Fix it, or keep editing the text.`,
      );
      return;
    }
    setSwitchProblem(undefined);
    onChange({ mode: 'table', text, rows: table.rows });
  };
  return (
    <div className="mapping-editor">
      <div className="segmented" role="group" aria-label="Edit the user-info parsing as">
        <button type="button" aria-pressed={mode === 'table'} onClick={toTable}>
          Table
        </button>
        <button type="button" aria-pressed={mode === 'text'} onClick={toText}>
          Text
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
          legend="User-info parsing"
          hint="Empty: the object under the key user is the user. Otherwise each attribute takes the value of its expression over $response; userId is required. Tick Required where the response must hold a value: without one the sign-in fails rather than leaving the attribute empty."
          nameKey="attribute"
          valueKey="expression"
          nameLabel="Attribute"
          valueLabel="Expression"
          rows={rows}
          nameOptions={attributes}
          onChange={(next) => {
            onChange({ mode, rows: next, text });
          }}
          problems={problems}
          addLabel="Add a mapping"
          requiredLabel="Required"
        />
      ) : (
        <TextField
          field={field}
          label="User-info parsing (text)"
          value={text}
          multiline
          code
          onChange={(next) => {
            onChange({ mode, rows, text: next });
          }}
          problems={problemsOf(problems, field, true)}
          hint={
            <p>
              One <code>attribute = expression</code> per line, for example{' '}
              <code>userId = JSON_GET($response, &apos;id&apos;)</code>. Blank lines and lines
              starting with <code>#</code> are ignored. Attributes: {attributes.join(', ')}.
            </p>
          }
        />
      )}
    </div>
  );
}
