import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importedModules } from './test-support/source-imports.js';

/**
 * The folders of src/ are layers (docs/architecture.md#layers): a folder
 * imports only folders below it, so no two folders depend on each other,
 * directly or through others. The tree shows the layers: `core/`, then
 * `foundation/` and `features/`, each a group of folders, then the shell
 * (`app/`, `main.ts`, `cli/`, `demo/`). This reads the TypeScript sources, not
 * the compiled ones, because type-only imports vanish from the output yet tie
 * the folders together all the same. Tests and test-support folders are
 * outside the rule: they may reach across layers to build a whole gateway.
 */
// Compiled into build/src/, so the path climbs out of build/ first.
const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url));

/** The folders of src/ that group layers rather than being one. */
const groupFolders = new Set(['foundation', 'features']);

/**
 * A file's unit of the rule: its folder in src/ (inside a group, the folder
 * within the group, as `foundation/storage/`), or the file itself when it
 * sits in src/.
 */
function unitOf(file: string): string {
  const [first = '', second, ...rest] = relative(sourceRoot, file).split(sep);
  if (second === undefined) return first;
  if (groupFolders.has(first) && rest.length > 0) return `${first}/${second}/`;
  return `${first}/`;
}

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(sourceRoot, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !relative(sourceRoot, file).split(sep).includes('test-support'));
}

/** Which folders each one imports (itself left out). */
async function folderImports(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const file of await sourceFiles()) {
    const from = unitOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const specifier of importedModules(await readFile(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier);
      if (relative(sourceRoot, target).startsWith('..')) continue;
      const to = unitOf(target);
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

/**
 * The layers, from the bottom up (docs/architecture.md#layers): a product
 * module may import only its own folder and the folders listed before it.
 * Within a layer the order counts too, so the list is one order of every
 * folder. `example-server/`, `multi-instance/` and `fuzz/` stand apart, as
 * do the repository-wide tests in src/ itself.
 */
const layers: readonly (readonly string[])[] = [
  ['core/'],
  [
    'foundation/crypto/',
    'foundation/pages/',
    'foundation/web/',
    'foundation/logging/',
    'foundation/outbound/',
    'foundation/config/',
    'foundation/presets/',
    'foundation/observability/',
  ],
  ['foundation/oidc/', 'foundation/storage/', 'foundation/entries/'],
  ['foundation/http/'],
  [
    'features/extension/',
    'features/ldap-directory/',
    'features/saml/',
    'features/rate-limit/',
    'features/access-rules/',
    'features/provisioning/',
    'features/sessions/',
  ],
  [
    'features/sign-in/',
    'features/portal/',
    'features/admin-console/',
    'features/local-accounts/',
    'features/admin-api/',
    'features/trial-sign-in/',
    'features/second-factor/',
    'features/forward-auth/',
    'features/reverse-proxy/',
    'features/openid-provider/',
  ],
  ['app/'],
  ['main.ts', 'cli/', 'demo/'],
];

/** Folders outside the order: their own server, and tests. */
const standApart = new Set(['example-server/', 'multi-instance/', 'fuzz/', 'test-support/']);

/** Each import that goes up the order or sideways to a later folder, as `from → to`. */
function layerViolations(
  graph: ReadonlyMap<string, ReadonlySet<string>>,
  order: readonly string[],
): string[] {
  const rank = new Map(order.map((folder, index) => [folder, index]));
  const violations: string[] = [];
  for (const [from, targets] of graph) {
    const fromRank = rank.get(from);
    if (fromRank === undefined) continue;
    for (const to of targets) {
      const toRank = rank.get(to);
      if (toRank !== undefined && toRank > fromRank) violations.push(`${from} → ${to}`);
    }
  }
  return violations.sort();
}

describe('the layers of src/', () => {
  test('every folder of src/ has its place in the layer order', async () => {
    const graph = await folderImports();
    const placed = new Set(layers.flat());
    const unplaced = [...graph.keys()].filter(
      (folder) => !placed.has(folder) && !standApart.has(folder) && folder.endsWith('/'),
    );
    assert.deepEqual(unplaced.sort(), [], 'folders missing from the layer order');
  });

  test('the tree shows the layers: each group folder holds one run of the order, and nothing else', async () => {
    const order = layers.flat();
    const groupOf = (unit: string) => unit.split('/')[0] ?? unit;
    const runs = order.map(groupOf).filter((group, index, all) => group !== all[index - 1]);
    assert.equal(
      new Set(runs).size,
      runs.length,
      `a group folder split in the order: ${runs.join(', ')}`,
    );
    for (const group of groupFolders) {
      const entries = await readdir(join(sourceRoot, group), { withFileTypes: true });
      const inTree = entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${group}/${entry.name}/`);
      const inOrder = order.filter((unit) => groupOf(unit) === group);
      assert.deepEqual(inTree.sort(), [...inOrder].sort(), `the folders of src/${group}/`);
      assert.deepEqual(
        entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name),
        [],
        `src/${group}/ holds folders only`,
      );
    }
  });

  test('a product module imports only its own layer and those below it, in order', async () => {
    assert.deepEqual(layerViolations(await folderImports(), layers.flat()), []);
  });

  test('the table of docs/architecture.md#layers is this order', async () => {
    const page = await readFile(
      fileURLToPath(new URL('../../docs/architecture.md', import.meta.url)),
      'utf8',
    );
    const section = page.slice(
      page.indexOf('## Layers'),
      page.indexOf('\n## ', page.indexOf('## Layers') + 1),
    );
    const rows = [...section.matchAll(/^\| (\d+) +\| (.+?) *\|$/gm)].map((row) =>
      [...(row[2] ?? '').matchAll(/`([^`]+)`/g)].map((name) => name[1] ?? ''),
    );
    assert.deepEqual(rows, layers);
  });

  test('an import up the order is named', () => {
    const graph = new Map([
      ['outbound/', new Set(['core/', 'storage/'])],
      ['storage/', new Set(['core/'])],
    ]);
    assert.deepEqual(layerViolations(graph, ['core/', 'outbound/', 'storage/']), [
      'outbound/ → storage/',
    ]);
    assert.deepEqual(layerViolations(graph, ['core/', 'storage/', 'outbound/']), []);
  });

  test('no two folders of src/ import each other, directly or through others', async () => {
    const graph = await folderImports();
    assert.ok(graph.size > 20, `expected the folders of src/, found ${graph.size}`);
    assert.deepEqual(importCycles(graph), [], 'folders of src/ in an import cycle');
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
