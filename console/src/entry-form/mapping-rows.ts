import { parseMappingText, printMappingText } from '../../../src/core/entry/mapping-text.js';
import type { Row } from './entry-draft.js';

/**
 * The user-info mapping's table and text forms (docs/entries.md), converted
 * with the core's own reader and printer, so what the table shows is what
 * the text means.
 */

/** The table's rows as text, one `attribute = expression` per line; blank rows are left out. */
export function mappingTextFromRows(rows: readonly Row[]): string {
  const mappings = rows
    .filter((row) => row.name !== '' || row.value !== '')
    .map((row) => ({
      attribute: row.name,
      expression: row.value,
      required: row.required === true,
    }));
  return printMappingText(mappings);
}

export type MappingTable =
  | { readonly ok: true; readonly rows: readonly Row[] }
  | { readonly ok: false; readonly problem: string };

/** The text as the table's rows, or the first problem that keeps it from being one. */
export function rowsFromMappingText(text: string): MappingTable {
  const parsed = parseMappingText(text, 'userInfoParse');
  const first = parsed.problems[0];
  if (first !== undefined) return { ok: false, problem: first.message };
  return {
    ok: true,
    rows: parsed.mappings.map(({ attribute, expression, required }) => ({
      name: attribute,
      value: expression,
      ...(required === true ? { required } : {}),
    })),
  };
}

/**
 * The row with its "required" box ticked or cleared. A cleared row carries no
 * `required` at all, as a row read from text without the marker, so the
 * table and the text agree on what an unmarked row is.
 */
export function withRequired(row: Row, required: boolean): Row {
  return required ? { ...row, required: true } : { name: row.name, value: row.value };
}
