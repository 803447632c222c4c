import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importedModules } from './test-support/source-imports.js';

/**
 * The top-level folders of src/ are layers (docs/architecture.md#layers): a
 * folder imports only folders below it, so no two folders depend on each
 * other, directly or through others. This reads the TypeScript sources, not
 * the compiled ones, because type-only imports vanish from the output yet tie
 * the folders together all the same. Tests and test-support folders are
 * outside the rule: they may reach across layers to build a whole gateway.
 */
// Compiled into build/src/, so the path climbs out of build/ first.
const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url));

/** A file's unit of the rule: its top-level folder, or the file itself when it sits in src/. */
function topLevelOf(file: string): string {
  const [first = '', ...rest] = relative(sourceRoot, file).split(sep);
  return rest.length > 0 ? `${first}/` : first;
}

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(sourceRoot, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !relative(sourceRoot, file).split(sep).includes('test-support'));
}

/** Which top-level folders each one imports (itself left out). */
async function folderImports(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const file of await sourceFiles()) {
    const from = topLevelOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const specifier of importedModules(await readFile(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier);
      if (relative(sourceRoot, target).startsWith('..')) continue;
      const to = topLevelOf(target);
      if (to !== from) targets.add(to);
    }
  }
  return graph;
}

/** The shortest chain of imports from `start` back to `goal`, if there is one. */
function importChain(
  graph: ReadonlyMap<string, ReadonlySet<string>>,
  start: string,
  goal: string,
): string[] | undefined {
  const cameFrom = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const to of graph.get(next) ?? []) {
      if (to === goal) {
        const chain = [next];
        while (chain[0] !== start) chain.unshift(cameFrom.get(chain[0] ?? '') ?? start);
        return chain;
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, next);
        queue.push(to);
      }
    }
  }
  return undefined;
}

/**
 * Every cycle, each written from its first folder in name order and back,
 * as `a/ → b/ → a/`. One cycle per folder that is in one, so a tangle of
 * many folders shows each of them.
 */
function importCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles = new Set<string>();
  for (const folder of [...graph.keys()].sort()) {
    const chain = importChain(graph, folder, folder);
    if (chain === undefined) continue;
    const first = chain.indexOf([...chain].sort()[0] ?? folder);
    const rotated = [...chain.slice(first), ...chain.slice(0, first)];
    cycles.add([...rotated, rotated[0]].join(' → '));
  }
  return [...cycles].sort();
}

describe('the layers of src/', () => {
  test('no two top-level folders of src/ import each other, directly or through others', async () => {
    const graph = await folderImports();
    assert.ok(graph.size > 20, `expected the folders of src/, found ${graph.size}`);
    assert.deepEqual(importCycles(graph), [], 'top-level folders of src/ in an import cycle');
  });

  test('the import scanner sees type-only imports, re-exports and import types', () => {
    const sample = [
      "import type { Gateway } from '../http/gateway.js';",
      "export type { SessionDeps } from '../http/gateway.js';",
      "export { SignInError } from '../core/index.js';",
      'import {\n  first,\n  second,\n} from "./multi-line.js";',
      "import './side-effect.js';",
      "type Socket = import('../net/socket.js').Socket;",
      "import { z } from 'zod';",
    ].join('\n');
    assert.deepEqual(importedModules(sample).sort(), [
      '../core/index.js',
      '../http/gateway.js',
      '../http/gateway.js',
      '../net/socket.js',
      './multi-line.js',
      './side-effect.js',
    ]);
  });

  test('a cycle is named, through however many folders it runs', () => {
    const graph = new Map([
      ['app/', new Set(['sign-in/', 'http/'])],
      ['sign-in/', new Set(['http/', 'extension/'])],
      ['extension/', new Set(['sign-in/'])],
      ['http/', new Set(['storage/'])],
      ['storage/', new Set(['config/'])],
      ['config/', new Set(['storage/'])],
    ]);
    assert.deepEqual(importCycles(graph), [
      'config/ → storage/ → config/',
      'extension/ → sign-in/ → extension/',
    ]);
    graph.set('storage/', new Set(['config/', 'app/']));
    assert.deepEqual(importCycles(graph), [
      'app/ → http/ → storage/ → app/',
      'config/ → storage/ → config/',
      'extension/ → sign-in/ → extension/',
    ]);
  });
});
