import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importedModules } from './test-support/source-imports.js';

/**
 * What `npm run build` compiles into dist/ is the product alone: no test,
 * no test helper. Test helpers live in `test-support/` folders, which
 * tsconfig.build.json leaves out; a helper elsewhere would ship, and with it
 * whatever a test needs (a fake server, a Redis it spawns). This asks tsc
 * for the build's file list rather than building, so it stays cheap.
 */
// Compiled into build/src/, so the paths climb out of build/ first.
const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const sourceRoot = resolve(repositoryRoot, 'src');

/** The programs dist/ exists for: package.json's scripts and bin, the example server, the extension API printer. */
const entryPoints = [
  'main.ts',
  'cli/ssogate.ts',
  'demo/main.ts',
  'example-server/main.ts',
  'features/extension/print-openapi.ts',
];

async function buildSources(): Promise<string[]> {
  const tsc = resolve(repositoryRoot, 'node_modules/typescript/bin/tsc');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'],
    { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((file) => file !== '' && !relative(sourceRoot, file).startsWith('..'))
    .map((file) => relative(sourceRoot, file).split(sep).join('/'))
    .sort();
}

/** Every module the entry points import, directly or through others. */
async function reachableFromEntryPoints(): Promise<Set<string>> {
  const reached = new Set<string>();
  const queue = [...entryPoints];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (reached.has(next)) continue;
    reached.add(next);
    const file = resolve(sourceRoot, next);
    for (const specifier of importedModules(await readFile(file, 'utf8'))) {
      const target = relative(sourceRoot, resolve(dirname(file), specifier))
        .split(sep)
        .join('/')
        .replace(/\.js$/, '.ts');
      if (!target.startsWith('..')) queue.push(target);
    }
  }
  return reached;
}

describe('the build', () => {
  test('compiles no test and no test-support module', async () => {
    const sources = await buildSources();
    assert.ok(sources.includes('main.ts'), `the list looks wrong: ${sources.join(', ')}`);
    const testModules = sources.filter(
      (file) => /\.test\.tsx?$/.test(file) || file.split('/').includes('test-support'),
    );
    assert.deepEqual(testModules, []);
  });

  test('compiles only what the programs use: a module only tests import belongs in test-support/', async () => {
    const reachable = await reachableFromEntryPoints();
    const unused = (await buildSources()).filter(
      (file) => !file.endsWith('.d.ts') && !reachable.has(file),
    );
    assert.deepEqual(unused, []);
  });
});
