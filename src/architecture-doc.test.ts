import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Compiled into build/src/, so both paths climb out of build/ first.
const architectureDoc = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));
const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url));

/** The folders that group layers (docs/architecture.md#layers): the tree shows what each holds. */
const groupFolders = ['foundation', 'features'];

/**
 * The folders the tree of docs/architecture.md shows directly under `src/`,
 * and under each group folder, as `foundation/storage`.
 */
async function documentedFolders(): Promise<Set<string>> {
  const text = await readFile(architectureDoc, 'utf8');
  const tree = /^```\nsrc\/\n([\s\S]*?)^```$/m.exec(text)?.[1];
  assert.ok(tree !== undefined, 'docs/architecture.md has no folder tree starting at src/');
  // Each level is indented by two more spaces: `  name/   what it holds`.
  const folders = new Set<string>();
  let topLevel = '';
  for (const match of tree.matchAll(/^( +)([\w.-]+)\/(?:\s|$)/gm)) {
    const [, indent = '', name = ''] = match;
    if (indent.length === 2) {
      topLevel = name;
      folders.add(name);
    } else if (indent.length === 4 && groupFolders.includes(topLevel)) {
      folders.add(`${topLevel}/${name}`);
    }
  }
  return folders;
}

/** The folders directly under `src/`, and under each group folder. */
async function sourceFolders(): Promise<Set<string>> {
  const folders = new Set<string>();
  for (const entry of await readdir(sourceRoot, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    folders.add(entry.name);
    if (!groupFolders.includes(entry.name)) continue;
    for (const child of await readdir(join(sourceRoot, entry.name), { withFileTypes: true }))
      if (child.isDirectory()) folders.add(`${entry.name}/${child.name}`);
  }
  return folders;
}

test('the folder tree of docs/architecture.md names every folder of src/ and of its groups, and no other', async () => {
  const documented = await documentedFolders();
  const folders = await sourceFolders();
  for (const folder of folders)
    assert.ok(documented.has(folder), `src/${folder}/ is missing from docs/architecture.md`);
  for (const folder of documented)
    assert.ok(
      folders.has(folder),
      `docs/architecture.md names src/${folder}/, which does not exist`,
    );
});

test('docs/architecture.md names every member of the Storage interface', async () => {
  const types = await readFile(
    new URL('../../src/foundation/storage/types.ts', import.meta.url),
    'utf8',
  );
  const body = /^export interface Storage \{\n([\s\S]*?)^\}/m.exec(types)?.[1];
  assert.ok(body !== undefined, 'src/foundation/storage/types.ts declares the Storage interface');
  const members = [...body.matchAll(/^ {2}(?:readonly )?(\w+)[?(:<]/gm)].map((match) => match[1]);
  assert.ok(members.length > 10, `expected the members of Storage, found ${members.length}`);
  const text = await readFile(architectureDoc, 'utf8');
  const paragraph = text.slice(text.indexOf('Storage is one object'));
  const named = paragraph.slice(0, paragraph.indexOf('\n\n'));
  for (const member of members)
    assert.ok(
      named.includes(`\`${member}\``),
      `docs/architecture.md does not name Storage.${member}`,
    );
});
