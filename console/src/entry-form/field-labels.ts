import type { ConsoleMessages } from '../i18n/catalogs.js';

/**
 * The on-screen label of each entry field, so that a problem, a hint or an
 * audit line names what the administrator sees, not the API's field name.
 * The labels are the catalog's (`entryForm.fields` in console/src/i18n/en.ts),
 * handed in by the caller: plain code, no DOM, no React (tested under
 * Node.js). A new field of the form adds its label there; an unknown field
 * falls back to its API name. `FieldWords` is the part of the catalog
 * section these functions read.
 */
export type FieldWords = Pick<ConsoleMessages['entryForm'], 'fields' | 'fieldRow' | 'wholeEntry'>;

/**
 * The label of an API field path: the closest labelled field, with a row
 * number for a list (`tokenRequest.headers[0].name` is `Token call headers,
 * row 1`); an unknown field keeps its API name.
 */
export function labelOf(field: string, words: FieldWords): string {
  const labels: Readonly<Record<string, string>> = words.fields;
  const list = /^([^[]+)\[(\d+)\]/.exec(field);
  if (list?.[1] !== undefined) {
    const label = closestLabel(list[1], labels);
    if (label !== undefined) return words.fieldRow(label, Number(list[2]) + 1);
  }
  return (
    closestLabel(field, labels) ?? (field === '' || field === 'entry' ? words.wholeEntry : field)
  );
}

function closestLabel(path: string, labels: Readonly<Record<string, string>>): string | undefined {
  for (let at = path; at !== ''; at = at.includes('.') ? at.slice(0, at.lastIndexOf('.')) : '') {
    const label = labels[at];
    if (label !== undefined) return label;
  }
  return undefined;
}

/** Top-level field names, longest first, so `userInfoUrl` is not read as part of another. */
function topLevelNames(labels: Readonly<Record<string, string>>): string[] {
  return Object.keys(labels)
    .filter((name) => !name.includes('.'))
    .sort((a, b) => b.length - a.length);
}

/**
 * A core message with each API field name or path it mentions replaced by
 * the field's label (`${code} is not allowed in authorizeUrl` → `... in
 * Authorization URL`; `tokenRequest.headers[0]` → `Token call headers, row
 * 1`). Only whole words that are field names change, never a word inside a
 * placeholder such as `${redirect_uri}`.
 */
export function screenWords(message: string, words: FieldWords): string {
  const names = new RegExp(
    `(?<![\\w{$.])(?:${topLevelNames(words.fields).join('|')})(?:\\.[A-Za-z]\\w*|\\[\\d+\\])*(?![\\w}])`,
    'g',
  );
  return message.replace(names, (path) => labelOf(path, words));
}
