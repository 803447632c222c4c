import { writeFile } from 'node:fs/promises';
import { stringify as toYaml } from 'yaml';
import type { EntryInput } from '../core/index.js';
import { entryInput, secretAfter, secretChange } from '../core/index.js';
import { changedFields } from '../features/admin-api/entry-changes.js';
import { loadEntriesFile } from '../features/provisioning/entries-file.js';
import { recordCliChange } from './cli-audit.js';
import type { CommandContext } from './token-commands.js';

/** Every field of an entry, in the schema's order: an export reads like the docs. */
const fieldOrder = Object.keys(entryInput.shape) as (keyof EntryInput)[];

/**
 * `ssogate entries export FILE`: the entries in the provisioning file's
 * format (`{ "entries": [...] }`, SSOGATE_ENTRIES_FILE reads it back), YAML
 * for a .yaml/.yml name, JSON otherwise, `-` for standard output. Secrets
 * are left out unless asked for; the file is written readable by its owner
 * only either way, since a configuration file is where secrets get pasted.
 */
export async function exportEntries(
  context: CommandContext,
  path: string,
  withSecrets: boolean,
): Promise<void> {
  const records = await context.storage.entries.list();
  const entries = records.map((record) => exportable(record.input, withSecrets));
  const document = { entries };
  const text = /\.ya?ml$/i.test(path) ? toYaml(document) : `${JSON.stringify(document, null, 2)}\n`;
  if (path === '-') {
    context.out(text.trimEnd());
  } else {
    await writeFile(path, text, { mode: 0o600 });
  }
  const secrets = records.filter((record) => record.input.appsecret !== undefined).length;
  context.note(
    `Exported ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}` +
      (withSecrets
        ? ` with ${secrets} secret${secrets === 1 ? '' : 's'}: keep the file safe.`
        : secrets > 0
          ? ` without their secrets (${secrets} stored; --with-secrets includes them).`
          : '.'),
  );
}

/**
 * `ssogate entries import FILE`: every entry of the file validated as the
 * API does, all problems reported before anything is written; then each is
 * created or replaced. Unlike SSOGATE_ENTRIES_FILE, an entry without
 * `appsecret` keeps its stored secret, so an export without secrets can be
 * edited and imported back. Entries not in the file are left alone.
 */
export async function importEntries(context: CommandContext, path: string): Promise<void> {
  const inputs = await loadEntriesFile(path, 'ssogate entries import', context.outboundPolicy);
  const store = context.storage.entries;
  const counts = { created: 0, updated: 0, unchanged: 0 };
  for (const input of inputs) {
    const now = context.clock();
    const before = await store.get(input.id);
    if (before === undefined) {
      if (!(await store.create(input, now))) {
        throw new Error(`entry "${input.id}" appeared while importing; run the import again`);
      }
      counts.created += 1;
      await recordChange(
        context,
        now,
        input.id,
        'create',
        changedFields(undefined, input, secretChange(input.appsecret)),
      );
      continue;
    }
    // Whoever runs this holds the file and the database: comparing the
    // secret here reveals nothing, and spares a rewrite of an equal one.
    const secret =
      input.appsecret === before.input.appsecret ? 'keep' : secretChange(input.appsecret);
    const fields = changedFields(before.input, withStored(input, before.input), secret);
    if (fields.length === 0) {
      counts.unchanged += 1;
      continue;
    }
    await store.update(input.id, input, now, 'keep');
    counts.updated += 1;
    await recordChange(context, now, input.id, 'update', fields);
  }
  // Running instances drop their compiled entries: at once through Redis;
  // a single SQLite gateway, which hears no other process, at its restart.
  if (counts.created + counts.updated > 0) await context.storage.changes.publish('entries');
  context.out(
    `created ${counts.created}, updated ${counts.updated}, unchanged ${counts.unchanged}`,
  );
}

/** The input as the file shows it: fields in order, no empty ones, isDefault only when set. */
function exportable(input: EntryInput, withSecrets: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field of fieldOrder) {
    const value = input[field];
    if (value === undefined) continue;
    if (field === 'appsecret' && !withSecrets) continue;
    if (field === 'isDefault' && value !== true) continue;
    item[field] = value;
  }
  return item;
}

/** The entry as it will be stored: without a secret in the file, the stored one stays. */
function withStored(input: EntryInput, stored: EntryInput): EntryInput {
  return {
    ...input,
    appsecret: secretAfter(input.appsecret, stored.appsecret) as string | undefined,
  };
}

function recordChange(
  context: CommandContext,
  at: number,
  entryId: string,
  action: 'create' | 'update',
  fields: readonly string[],
): Promise<void> {
  return recordCliChange(context, at, 'entry_change', entryId, {
    action,
    fields: [...fields],
    via: 'import',
  });
}
