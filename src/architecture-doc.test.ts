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
