import { labelOf } from '../entry-form/field-labels.js';
import type { ConsoleMessages } from '../i18n/catalogs.js';
import { en } from '../i18n/catalogs.js';

/**
 * An audit event's detail as a reader takes it in: what was done, each
 * changed field by its on-screen label with its value before and after, and
 * any other fact as `name: value`. Plain code, no DOM.
 */
export interface ReadableDetail {
  readonly action: string | undefined;
  readonly changes: readonly { label: string; before: string; after: string }[];
  readonly facts: readonly { name: string; value: string }[];
}

/** The catalog parts a detail is said with: the audit's words and the form's labels. */
type DetailWords = Pick<ConsoleMessages, 'audit' | 'entryForm'>;

/** A value as one line of text; an absent side of a change is "not set". */
export function shownValue(value: unknown, words: DetailWords = en): string {
  const said = words.audit.detail;
  if (value === undefined || value === null) return said.notSet;
  if (typeof value === 'string') return value === '' ? said.empty : value;
  if (typeof value === 'boolean') return value ? said.yes : said.no;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.join(words.entryForm.listSeparator);
  }
  return JSON.stringify(value);
}

interface RecordedChange {
  readonly field: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

function isChange(value: unknown): value is RecordedChange {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RecordedChange).field === 'string'
  );
}

export function readableDetail(
  detail: Readonly<Record<string, unknown>> | null,
  words: DetailWords = en,
): ReadableDetail {
  if (detail === null) return { action: undefined, changes: [], facts: [] };
  const actions: Readonly<Record<string, string>> = words.audit.detail.actions;
  const factNames: Readonly<Record<string, string>> = words.audit.detail.facts;
  const factValues: Readonly<Record<string, Readonly<Record<string, string>> | undefined>> =
    words.audit.detail.factValues;
  const { action, changes, fields, ...rest } = detail;
  const recorded = Array.isArray(changes) ? changes.filter(isChange) : [];
  const facts = Object.entries(rest).map(([name, value]) => ({
    name: factNames[name] ?? name,
    value:
      (typeof value === 'string' ? factValues[name]?.[value] : undefined) ??
      shownValue(value, words),
  }));
  // Older events name the fields without their values.
  if (recorded.length === 0 && Array.isArray(fields) && fields.length > 0) {
    facts.unshift({
      name: words.audit.detail.facts.fields,
      value: fields
        .map((field) => labelOf(String(field), words.entryForm))
        .join(words.entryForm.listSeparator),
    });
  }
  return {
    action: typeof action === 'string' ? (actions[action] ?? action) : undefined,
    changes: recorded.map((change) => ({
      label: labelOf(change.field, words.entryForm),
      before: shownValue(change.before, words),
      after: shownValue(change.after, words),
    })),
    facts,
  };
}
