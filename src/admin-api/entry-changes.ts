import { isDeepStrictEqual } from 'node:util';
import type { EntryInput, SecretChange } from '../core/index.js';
import { entryInput } from '../core/index.js';

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
