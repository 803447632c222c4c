import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * An entry's kind is told apart in one place (docs/adding-a-source.md): its
 * sign-in source, found by source-registry.ts `sourceOf`. Everything else
 * asks the source, so a new kind is added there and nowhere else. Besides
 * the sources, only the entry model, which defines the kinds
 * (src/core/entry/), and the console's own registry of kinds
 * (console/src/entry-kinds/) may read an entry's type.
 */
// Compiled into build/src/features/sign-in/sources/, so the path climbs out of build/ first.
const repositoryRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

const allowed = ['src/features/sign-in/sources/', 'src/core/entry/', 'console/src/entry-kinds/'];

const kinds = String.raw`['"\x60](?:oauth2|extension|openid-connect|ldap)['"\x60]`;

/**
 * What reads an entry's kind. A kind is read off a value named as entries
 * are (`entry.type`, `input?.type`, `validation.entry.type`, `draft.type`,
 * `given.type`), compared by name with any `.type`
 * (`x?.type === 'oauth2'`), branched on (`case 'extension':`) or
 * destructured (`const { type } = entry`). A template part's `part.type`
 * is neither named as an entry nor compared with a kind's name, and a
 * field named in a string (`'entry.type'`) is no read.
 */
const kindReads: readonly RegExp[] = [
  /(?<![\w$'"`])(?:entry|input|given|draft|stored|candidate)\??\.type\b/,
  new RegExp(String.raw`\.type\s*[!=]==?\s*${kinds}`),
  new RegExp(String.raw`${kinds}\s*[!=]==?\s*[\w$.?]*\.type\b`),
  new RegExp(String.raw`\bcase\s+${kinds}\s*:`),
  /\{[^}]*\btype\b[^}]*\}\s*=\s*(?:entry|input|given|draft|stored|candidate)\b/,
];

/** Whether a line of code reads an entry's kind; comments are not code. */
function readsKind(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return false;
  return kindReads.some((pattern) => pattern.test(line));
}

async function filesUnder(folder: string, extensions: RegExp): Promise<string[]> {
  const root = join(repositoryRoot, folder);
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && extensions.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
    .map((entry) =>
      relative(repositoryRoot, join(entry.parentPath, entry.name)).split(sep).join('/'),
    )
    .filter((file) => !file.split('/').includes('test-support'))
    .filter((file) => !file.split('/').includes('node_modules'));
}

describe('reads of an entry kind', () => {
  test('the patterns catch a kind read, and nothing else named type', () => {
    for (const read of [
      "  if (entry.type === 'extension') {",
      "  if (entry?.type !== 'oauth2' || entry.oidc === undefined) {",
      '    type: input.type ?? x,',
      "      if (validation.entry.type === 'extension') {",
      "  if (given.type === 'extension') return x;",
      "          {draft.type === 'oauth2' ? <TestPanel /> : null}",
      "  const issuer = found?.type === 'oauth2' ? found.oidc?.issuer : undefined;",
      "  if ('extension' === stored.type) {",
      "    case 'extension':",
      "    case 'openid-connect': {",
      '  const { type, oidc } = entry;',
      '  switch (entry.type) {',
    ]) {
      assert.equal(readsKind(read), true, read);
    }
    for (const other of [
      "      if (part.type === 'placeholder') {",
      "  return parts.map((part) => (part.type === 'literal' ? part.text : 'x')).join('');",
      "    .type('text/html')",
      "  if (definition?.type !== 'table') throw new Error('No table');",
      "          'entry.type',",
      ' * Every entry.type is read by its source.',
      "  // entry.type === 'extension' was read here",
      "    recorder.begin('extension');",
      "  type: z.enum(['oauth2', 'extension']),",
      '  readonly type: string;',
    ]) {
      assert.equal(readsKind(other), false, other);
    }
  });

  test('only the sources, the entry model and the console registry read a kind', async () => {
    const files = [
      ...(await filesUnder('src', /\.ts$/)),
      ...(await filesUnder('console/src', /\.tsx?$/)),
    ];
    assert.ok(files.length > 100, `only ${files.length} files found under ${repositoryRoot}`);
    const reads: string[] = [];
    for (const file of files) {
      if (allowed.some((folder) => file.startsWith(folder))) continue;
      const lines = (await readFile(join(repositoryRoot, file), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (readsKind(line)) reads.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(
      reads,
      [],
      "ask the entry's sign-in source instead (src/features/sign-in/sources/source-registry.ts sourceOf, docs/adding-a-source.md)",
    );
  });
});
