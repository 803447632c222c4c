import { isDeepStrictEqual } from 'node:util';
import type { EntryInput, JsonValue, SecretChange } from '../../core/index.js';
import { entryInput } from '../../core/index.js';

/** Every field an entry can have, in the schema's order. */
const entryFields = Object.keys(entryInput.shape) as (keyof EntryInput)[];

/** Fields whose value is never compared or recorded: only that a write set or cleared them. */
const writeOnlyFields: ReadonlySet<string> = new Set(['appsecret', 'extensionSecret']);

/**
 * The names of the fields a write changed, for the audit log. A secret is
 * never compared or recorded by value: a write that sends one reports
 * `appsecret` (or `extensionSecret`), so the log cannot be used to confirm a
 * guess of the stored one.
 */
export function changedFields(
  before: EntryInput | undefined,
  after: EntryInput | undefined,
  secret: SecretChange,
  extensionSecret: SecretChange = 'keep',
): string[] {
  const changed = entryFields.filter(
    (field) =>
      !writeOnlyFields.has(field) &&
      !isDeepStrictEqual(valueOf(before, field), valueOf(after, field)),
  );
  if (secret === 'set' || (secret === 'clear' && before?.appsecret !== undefined)) {
    changed.push('appsecret');
  }
  if (
    extensionSecret === 'set' ||
    (extensionSecret === 'clear' && before?.extensionSecret !== undefined)
  ) {
    changed.push('extensionSecret');
  }
  return changed;
}

/** The store keeps `isDefault: false` for an absent flag; both mean the same. */
function valueOf(input: EntryInput | undefined, field: keyof EntryInput): unknown {
  if (input === undefined) return undefined;
  if (field === 'isDefault') return input.isDefault === true ? true : undefined;
  return input[field];
}

/** One changed field as the audit log shows it; a side is absent when the field was not set. */
interface FieldChange {
  readonly field: string;
  readonly before?: JsonValue;
  readonly after?: JsonValue;
}

/** Long values (a mapping text, say) are cut, so one event stays small. */
const shownLength = 500;

/**
 * Before and after of each changed field, for a reader of the audit log. A
 * write-only secret shows only as `set` (never its value, old or new).
 */
export function fieldChanges(
  before: EntryInput | undefined,
  after: EntryInput | undefined,
  fields: readonly string[],
): FieldChange[] {
  return fields.map((field) => {
    if (writeOnlyFields.has(field)) {
      const wasSet = before?.[field as keyof EntryInput] !== undefined;
      const isSet = after?.[field as keyof EntryInput] !== undefined;
      return { field, ...(wasSet ? { before: 'set' } : {}), ...(isSet ? { after: 'set' } : {}) };
    }
    const old = shown(valueOf(before, field as keyof EntryInput));
    const now = shown(valueOf(after, field as keyof EntryInput));
    return {
      field,
      ...(old === undefined ? {} : { before: old }),
      ...(now === undefined ? {} : { after: now }),
    };
  });
}

function shown(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    return value.length > shownLength ? `${value.slice(0, shownLength)}…` : value;
  }
  const text = JSON.stringify(value);
  return text.length > shownLength ? `${text.slice(0, shownLength)}…` : (value as JsonValue);
}

/** The changes as the audit detail's JSON. */
export function jsonChanges(changes: readonly FieldChange[]): JsonValue[] {
  return changes.map((change) => ({ ...change }));
}
