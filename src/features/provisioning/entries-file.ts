import { open } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import type { EntryInput } from '../../core/index.js';
import { SsogateError, describeProblem, validateEntry } from '../../core/index.js';
import type { AddressPolicy } from '../../foundation/outbound/address-policy.js';
import { addressPolicy } from '../../foundation/outbound/address-policy.js';
import { entryAddressProblems } from '../../foundation/outbound/entry-addresses.js';
import type { Storage } from '../../foundation/storage/types.js';
import { parseYaml } from '../../foundation/config/parse-yaml.js';

/**
 * Entries provisioned at start from SSOGATE_ENTRIES_FILE (docs/configuration.md): JSON or
 * YAML (YAML is a superset of JSON, so one parser reads both) of the shape
 * `{ entries: [ ... ] }`, each item with the API's fields, appsecret
 * included. Every item is validated exactly as the API does, and every
 * problem of the whole file is reported at once, so one edit fixes them all.
 */
export async function loadEntriesFile(
  path: string,
  /** How messages name the file: the setting, or the command that read it. */
  source = 'SSOGATE_ENTRIES_FILE',
  /** Which hosts the entries may call (SSOGATE_OUTBOUND_ALLOW); strict unless given. */
  policy: AddressPolicy = addressPolicy(),
): Promise<EntryInput[]> {
  const items = entriesOf(parseFile(path, await readText(path, source), source), path, source);
  const problems: string[] = [];
  const inputs: EntryInput[] = [];
  const firstIndexOf = new Map<string, number>();
  let defaultIndex: number | undefined;

  items.forEach((item, index) => {
    const id = idOf(item);
    const place = `entries[${index}]${id === undefined ? '' : ` (id "${id}")`}`;
    const validation = validateEntry(item);
    const refused = validation.ok ? entryAddressProblems(validation.entry, policy) : [];
    if (!validation.ok || refused.length > 0) {
      for (const problem of validation.ok ? refused : validation.problems)
        problems.push(`${place} ${describeProblem(problem)}`);
      return;
    }
    const input = validation.entry.input;
    const first = firstIndexOf.get(input.id);
    if (first !== undefined) {
      problems.push(`${place} id: duplicates entries[${first}]; each id may appear once`);
      return;
    }
    firstIndexOf.set(input.id, index);
    // The store keeps one default by unsetting the others, so two defaults in
    // the file would quietly leave the last one: refuse instead.
    if (input.isDefault === true) {
      if (defaultIndex !== undefined) {
        problems.push(
          `${place} isDefault: entries[${defaultIndex}] is the default already; at most one may be`,
        );
        return;
      }
      defaultIndex = index;
    }
    inputs.push(input);
  });

  if (problems.length > 0) {
    throw new SsogateError(
      'config_invalid',
      `${source} ${path} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((problem) => `  - ${problem}`).join('\n'),
    );
  }
  return inputs;
}

interface ProvisionCounts {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
}

/**
 * Writes the file's entries: the file is the source of truth for its ids, so
 * an existing entry is replaced whole, its secret included (cleared when the
 * file gives none). Entries not in the file are left alone. An entry equal to
 * the stored one is not rewritten, so a restart does not touch updatedAt.
 * The caller invalidates the entry registry if one is already running.
 */
export async function provisionEntries(
  storage: Storage,
  inputs: readonly EntryInput[],
  now: number,
): Promise<ProvisionCounts> {
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  for (const input of inputs) {
    let existing = await storage.entries.get(input.id);
    if (existing === undefined) {
      if (await storage.entries.create(input, now)) {
        created += 1;
        continue;
      }
      // Another instance starting at the same moment, from the same file,
      // created it first: compared and replaced like any stored entry.
      existing = await storage.entries.get(input.id);
    }
    if (
      existing !== undefined &&
      isDeepStrictEqual(comparable(existing.input), comparable(input))
    ) {
      unchanged += 1;
    } else {
      await storage.entries.update(input.id, input, now, 'clear');
      updated += 1;
    }
  }
  return { created, updated, unchanged };
}

/** The store keeps `isDefault: false` for an absent flag; both mean the same. */
function comparable(input: EntryInput): EntryInput {
  return { ...input, isDefault: input.isDefault === true };
}

/**
 * The largest entries file read: about three thousand entries. YAML parsing
 * and validation take a few seconds per megabyte, so a larger file (a
 * mistake, or a file someone else can write) would delay the start by
 * minutes; it is refused before it is parsed.
 */
export const entriesFileMaxBytes = 1024 * 1024;

async function readText(path: string, source: string): Promise<string> {
  let bytes: Buffer;
  try {
    const file = await open(path, 'r');
    try {
      // Read one byte past the cap, so a file that grew after any size check still fails.
      const buffer = Buffer.alloc(entriesFileMaxBytes + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await file.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0 || length + bytesRead === buffer.length) {
          length += bytesRead;
          break;
        }
        length += bytesRead;
      }
      bytes = buffer.subarray(0, length);
    } finally {
      await file.close();
    }
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SsogateError('config_invalid', `${source}: cannot read ${path} (${reason})`, {
      cause: error,
    });
  }
  if (bytes.length > entriesFileMaxBytes) {
    throw new SsogateError(
      'entries_file_too_large',
      `${source}: ${path} is larger than ${entriesFileMaxBytes} bytes (1 MiB); split it, or add the entries through the admin API`,
    );
  }
  return bytes.toString('utf8');
}

function parseFile(path: string, text: string, source: string): unknown {
  try {
    // No warnings: the YAML parser writes them to standard error quoting the
    // file (an unknown tag on an appsecret would print the secret).
    return parseYaml(text, { logLevel: 'error' });
  } catch (error) {
    // Only the first line ("... at line 4, column 9:"): the rest quotes the
    // file, and the quoted line may be an appsecret.
    const reason = (error as Error).message.split('\n')[0] ?? 'unreadable';
    throw new SsogateError(
      'config_invalid',
      `${source} ${path} is neither JSON nor YAML: ${reason.replace(/:$/, '')}`,
    );
  }
}

function entriesOf(document: unknown, path: string, source: string): unknown[] {
  const entries = isRecord(document) ? document.entries : undefined;
  if (!Array.isArray(entries)) {
    throw new SsogateError(
      'config_invalid',
      `${source} ${path} must hold an object with an "entries" list: { "entries": [ ... ] }`,
    );
  }
  return entries as unknown[];
}

function idOf(item: unknown): string | undefined {
  return isRecord(item) && typeof item.id === 'string' ? item.id : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
