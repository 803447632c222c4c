import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importedModules } from './test-support/source-imports.js';

/**
 * A feature that owns tables (the OpenID Provider: openid-provider/storage/)
 * owns their stores: another feature reaches its data through what the
 * feature exports for it, never through its storage, so the tables can
 * change with the feature alone (docs/architecture.md#the-folder-tree).
 * Every file of a feature folder counts, tests and test-support included;
 * the composition root (app/) and the command line, which build and use the
 * stores, are outside the rule. Compiled into build/src/, so the
 * path climbs out of build/ first.
 */
const featuresRoot = fileURLToPath(new URL('../../src/features/', import.meta.url));

/** The feature folder a path of src/features/ is in, and the rest of its path. */
function placeOf(path: string): { feature: string; rest: string[] } | undefined {
  const parts = relative(featuresRoot, path).split(sep);
  const [feature, ...rest] = parts;
  if (feature === undefined || feature === '..' || rest.length === 0) return undefined;
  return { feature, rest };
}

/** Whether `path` is one of its feature's stores: under its storage/ folder, or a *-store module. */
function isStoreModule(rest: readonly string[]): boolean {
  const name = rest.at(-1) ?? '';
  return rest[0] === 'storage' || /-store(\.test)?\.(js|ts)$/.test(name);
}

/** Each import of another feature's store, as `importer → imported` (paths under src/features/). */
function storeReaches(file: string, source: string): string[] {
  const from = placeOf(file);
  if (from === undefined) return [];
  return importedModules(source).flatMap((specifier) => {
    const target = resolve(dirname(file), specifier);
    const to = placeOf(target);
    if (to === undefined || to.feature === from.feature || !isStoreModule(to.rest)) return [];
    return [`${relative(featuresRoot, file)} → ${relative(featuresRoot, target)}`];
  });
}

async function featureFiles(): Promise<string[]> {
  const entries = await readdir(featuresRoot, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("a feature's stores are its own", () => {
  test("no file of a feature folder imports another feature's store", async () => {
    const reaches: string[] = [];
    for (const file of await featureFiles()) {
      reaches.push(...storeReaches(file, await readFile(file, 'utf8')));
    }
    assert.deepEqual(reaches.sort(), []);
  });

  test('the rule sees a store by its folder or its name, and only in another feature', () => {
    const file = join(featuresRoot, 'admin-api', 'presenters.ts');
    const source = [
      "import type { OidcClientRecord } from '../openid-provider/storage/types.js';",
      "import { createThingStore } from '../portal/thing-store.js';",
      "import { presentEntry } from './entry-store.js';",
      "import { providerPaths } from '../openid-provider/endpoints.js';",
      "import type { Storage } from '../../foundation/storage/types.js';",
    ].join('\n');
    assert.deepEqual(storeReaches(file, source), [
      `admin-api${sep}presenters.ts → openid-provider${sep}storage${sep}types.js`,
      `admin-api${sep}presenters.ts → portal${sep}thing-store.js`,
    ]);
  });
});
