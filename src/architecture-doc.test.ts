import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

// Compiled into build/src/, so both paths climb out of build/ first.
const architectureDoc = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));
const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url));

/** The folders the tree of docs/architecture.md shows directly under `src/`. */
async function documentedFolders(): Promise<Set<string>> {
  const text = await readFile(architectureDoc, 'utf8');
  const tree = /^```\nsrc\/\n([\s\S]*?)^```$/m.exec(text)?.[1];
  assert.ok(tree !== undefined, 'docs/architecture.md has no folder tree starting at src/');
  // One level under src/ is indented by two spaces: `  name/   what it holds`.
  return new Set([...tree.matchAll(/^ {2}([\w.-]+)\/(?:\s|$)/gm)].map((match) => match[1] ?? ''));
}

test('the folder tree of docs/architecture.md names every folder under src/, and no other', async () => {
  const documented = await documentedFolders();
  const entries = await readdir(sourceRoot, { withFileTypes: true });
  const folders = new Set(
    entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
  );
  for (const folder of folders)
    assert.ok(documented.has(folder), `src/${folder}/ is missing from docs/architecture.md`);
  for (const folder of documented)
    assert.ok(
      folders.has(folder),
      `docs/architecture.md names src/${folder}/, which does not exist`,
    );
});

test('docs/architecture.md names every member of the Storage interface', async () => {
  const types = await readFile(new URL('../../src/storage/types.ts', import.meta.url), 'utf8');
  const body = /^export interface Storage \{\n([\s\S]*?)^\}/m.exec(types)?.[1];
  assert.ok(body !== undefined, 'src/storage/types.ts declares the Storage interface');
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
