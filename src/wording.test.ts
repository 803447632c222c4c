import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = process.cwd();

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}

/**
 * What a user or an administrator reads (the console, the gateway's pages, the
 * docs, the README and changelog) speaks of the product itself: none of the
 * words of the documents it was first built from.
 */
test('no "seed" or "SPEC" wording in the console, the pages or the docs', async () => {
  const files = [
    ...(await filesUnder(join(root, 'console', 'src'))),
    ...(await filesUnder(join(root, 'src', 'foundation', 'pages'))),
    ...(await filesUnder(join(root, 'src', 'features', 'admin-console'))),
    ...(await filesUnder(join(root, 'docs'))),
    join(root, 'README.md'),
    join(root, 'CHANGELOG.md'),
  ].filter((file) => !file.endsWith('wording.test.ts'));
  const offending: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    text.split('\n').forEach((line, index) => {
      if (
        /\bseed(?:s|ed|ing)?\b/i.test(line) ||
        /\bSPEC\b/.test(line) ||
        /\bspecs?\b/i.test(line)
      ) {
        offending.push(`${relative(root, file)}:${String(index + 1)}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offending, []);
});
