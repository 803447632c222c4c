import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The core has no I/O (docs/design.md#what-the-core-guarantees): it must not import an HTTP framework, a
 * database driver, or a module that reaches the network, the disk or a child
 * process. This reads the compiled sources' imports; eslint.config.js checks
 * the same rule in the editor.
 */
const here = dirname(fileURLToPath(import.meta.url));
const allowedBuiltins = new Set(['crypto', 'buffer', 'util']);
const allowedPackages = new Set(['zod']);

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.js') && !entry.name.endsWith('.test.js'),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('/test-support/'));
}

function importedModules(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`]*?from\s*['"]([^'"]+)['"]/g),
  ]
    .concat([...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)])
    .concat([...source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)]);
  return specifiers.map((match) => match[1] ?? '');
}

describe('the core boundary', () => {
  test('core modules import only the core, zod and side-effect-free built-ins', async () => {
    const files = await sourceFiles(here);
    assert.ok(files.length > 20, `expected the core's modules, found ${files.length}`);
    const offenders: string[] = [];
    for (const file of files) {
      for (const specifier of importedModules(await readFile(file, 'utf8'))) {
        if (specifier.startsWith('.')) continue;
        const bare = specifier.replace(/^node:/, '');
        const isBuiltin = specifier.startsWith('node:') || builtinModules.includes(bare);
        const allowed = isBuiltin ? allowedBuiltins.has(bare) : allowedPackages.has(specifier);
        if (!allowed) offenders.push(`${relative(here, file)} imports ${specifier}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  test('the import scanner sees what a forbidden import looks like', () => {
    const sample =
      "import { request } from 'node:http';\nimport Fastify from \"fastify\";\nawait import('undici');";
    assert.deepEqual(importedModules(sample).sort(), ['fastify', 'node:http', 'undici']);
  });
});
