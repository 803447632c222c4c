import { labelOf } from '../entry-form/field-labels.js';
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

const actions: Readonly<Record<string, string>> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  enable: 'Enabled',
  disable: 'Disabled',
  set_default: 'Made the default',
  unset_default: 'No longer the default',
  reorder: 'Reordered',
  change_password: 'Password changed',
  end_sessions: 'Sessions ended',
  lock: 'Locked',
  unlock: 'Unlocked',
  grant_admin: 'Made an administrator',
  revoke_admin: 'Administrator rights revoked',
};

const factNames: Readonly<Record<string, string>> = {
  sessionsEnded: 'Sessions ended',
  warnings: 'Warnings',
  order: 'New order',
  fields: 'Fields',
  name: 'Name',
  tokenId: 'Token',
};

/** A value as one line of text; an absent side of a change is "not set". */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null) return 'not set';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.join(', ');
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

export function readableDetail(detail: Readonly<Record<string, unknown>> | null): ReadableDetail {
  if (detail === null) return { action: undefined, changes: [], facts: [] };
  const { action, changes, fields, ...rest } = detail;
  const recorded = Array.isArray(changes) ? changes.filter(isChange) : [];
  const facts = Object.entries(rest).map(([name, value]) => ({
    name: factNames[name] ?? name,
    value: shownValue(value),
  }));
  // Older events name the fields without their values.
  if (recorded.length === 0 && Array.isArray(fields) && fields.length > 0) {
    facts.unshift({
      name: factNames.fields ?? 'Fields',
      value: fields.map((field) => labelOf(String(field), en.entryForm)).join(', '),
    });
  }
  return {
    action: typeof action === 'string' ? (actions[action] ?? action) : undefined,
    changes: recorded.map((change) => ({
      label: labelOf(change.field, en.entryForm),
      before: shownValue(change.before),
      after: shownValue(change.after),
    })),
    facts,
  };
}
