import type { ConsoleMessages } from '../i18n/catalogs.js';
import { en } from '../i18n/catalogs.js';
import type { Problem } from '../types.js';

/**
 * The on-screen label of each entry field, so that a problem, a hint or an
 * audit line names what the administrator sees, not the API's field name.
 * The labels are the catalog's (`entryForm.fields` in console/src/i18n/en.ts),
 * handed in by the caller: plain code, no DOM, no React (tested under
 * Node.js). A new field of the form adds its label there; an unknown field
 * falls back to its API name. `FieldWords` is the part of the catalog
 * section these functions read.
 */
export type FieldWords = Pick<
  ConsoleMessages['entryForm'],
  'fields' | 'fieldRow' | 'wholeEntry' | 'problemSays' | 'listSeparator'
>;

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

/**
 * A core problem in the language on screen: said from its code and values
 * (`params`) where the catalog has a sentence for them, or from the core's
 * exact sentence for the few without values; any other keeps the core's
 * English with its field names as labels. The code stays beside it on
 * screen (field-problems.tsx, validation-summary.tsx).
 */
export function problemText(problem: Problem, words: FieldWords): string {
  const says = words.problemSays;
  const params = problem.params ?? {};
  const value = (name: string): string => {
    const found = params[name];
    return found === undefined ? '' : String(found);
  };
  // The core joins a list's items with ", "; each language has its own way.
  const list = (name: string): string => value(name).split(', ').join(words.listSeparator);
  const placeholder = value('placeholder');
  if (
    problem.code === 'template_placeholder_not_allowed' &&
    placeholder !== '' &&
    // The general refusal only: the special ones (a secret in the browser's
    // URL, a value from a later answer) say more than the catalog's sentence.
    problem.message.startsWith(`${placeholder} is not allowed in ${value('place')}. `)
  ) {
    return says.template_placeholder_not_allowed(
      placeholder,
      labelOf(value('place'), words),
      list('allowed'),
    );
  }
  if (problem.code === 'template_unknown_placeholder' && placeholder !== '') {
    return says.template_unknown_placeholder(placeholder, value('suggestion'), list('known'));
  }
  if (problem.code === 'expression_unknown_function' && says !== en.entryForm.problemSays) {
    // The core names the nearest known function only in its sentence (parser.ts).
    const suggestion = /did you mean ([A-Z_]+)\?/.exec(problem.message)?.[1];
    if (suggestion !== undefined) return says.unknownFunction(suggestion);
  }
  const english = en.entryForm.problemSays;
  const exact: Readonly<Record<string, string>> = {
    [english.required]: says.required,
    [english.notEmpty]: says.notEmpty,
    [english.idForm]: says.idForm,
  };
  const known = exact[problem.message];
  if (known !== undefined) return known;
  const field = problem.code === 'field_invalid' ? schemaSays(value, words) : undefined;
  if (field !== undefined) return field;
  // In English the core's own sentence says more than the code's; in
  // another language the code's sentence is what the administrator reads.
  const byCode = (says.codes as Readonly<Record<string, string>>)[problem.code ?? ''];
  return says === english || byCode === undefined ? screenWords(problem.message, words) : byCode;
}

/** A warning of the core's (validate-entry.ts) in the language on screen, by its exact sentence. */
export function warningText(warning: string, words: FieldWords): string {
  return warning === en.entryForm.problemSays.plainHttp
    ? words.problemSays.plainHttp
    : screenWords(warning, words);
}

/** A schema problem said from its kind and values (entry-problems.ts in the core). */
function schemaSays(value: (name: string) => string, words: FieldWords): string | undefined {
  const says = words.problemSays.field;
  switch (value('issue')) {
    case 'too_small':
      return says.tooSmall(value('minimum'), value('origin'));
    case 'too_big':
      return says.tooBig(value('maximum'), value('origin'));
    case 'invalid_type':
      return says.type(value('expected'));
    case 'invalid_value':
      return says.oneOf(value('allowed').split(', ').join(words.listSeparator));
    case 'invalid_format':
      return says.format(value('format'));
    case 'unknown_key':
      return says.unknownKey(value('key'));
    default:
      return undefined;
  }
}
