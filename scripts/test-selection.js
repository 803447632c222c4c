// Which of the compiled test files a run needs (scripts/run-tests.js).
//
// - The other supported Node.js lines (`--compat`) run the files listed in
//   scripts/compat-tests.txt: what can differ from one line to the next.
// - A run on PostgreSQL and Redis (SSOGATE_TEST_DATABASE_URL or
//   SSOGATE_TEST_REDIS_URL set) runs the files whose modules read those
//   settings, directly or through the modules they import: only they run
//   differently on another backend. The others (the core's pure functions,
//   the fuzzing, the docs, the pages) already ran on SQLite and would run
//   the same again.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const compatListFile = 'scripts/compat-tests.txt';

/** The source path of a compiled test file: `build/src/a/b.test.js` is `src/a/b.test.ts`. */
function sourceOf(compiled) {
  return relative('build', compiled).split(sep).join('/').replace(/\.js$/, '.ts');
}

/** The compiled path of a source test file listed by its source path. */
function compiledOf(source) {
  return join('build', source.replace(/\.tsx?$/, '.js'));
}

/**
 * The files of `files` that scripts/compat-tests.txt lists, and the listed
 * files that should be among them (under one of `folders`) but are not: a
 * file renamed or deleted without the list.
 */
export function compatFiles(files, folders) {
  const listed = readFileSync(compatListFile, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
  const wanted = new Set(listed);
  const chosen = files.filter((file) => wanted.has(sourceOf(file)));
  const found = new Set(chosen.map(sourceOf));
  const missing = listed.filter(
    (source) =>
      !found.has(source) &&
      folders.some((folder) => compiledOf(source).startsWith(join(folder, sep))),
  );
  return { chosen, missing };
}

const backendSettings = /SSOGATE_TEST_DATABASE_URL|SSOGATE_TEST_REDIS_URL/;
// Static imports, re-exports and import() of a relative module, as tsc writes them.
const relativeImport = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]+)\1/g;

/** Whether the backend in use is PostgreSQL or Redis rather than SQLite alone. */
export function otherBackend(env) {
  return Boolean(env.SSOGATE_TEST_DATABASE_URL) || Boolean(env.SSOGATE_TEST_REDIS_URL);
}

/** The files of `files` that read the backend settings, themselves or through their imports. */
export function backendFiles(files) {
  const texts = new Map();
  const text = (file) => {
    if (!texts.has(file)) texts.set(file, existsSync(file) ? readFileSync(file, 'utf8') : '');
    return texts.get(file);
  };
  const reads = new Map();
  const readsSettings = (start) => {
    if (reads.has(start)) return reads.get(start);
    const seen = new Set([start]);
    const queue = [start];
    let found = false;
    while (queue.length > 0 && !found) {
      const file = queue.shift();
      if (reads.get(file) === true || backendSettings.test(text(file))) found = true;
      for (const [, , specifier] of text(file).matchAll(relativeImport)) {
        const target = resolve(dirname(file), specifier);
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    reads.set(start, found);
    return found;
  };
  return files.filter((file) => readsSettings(resolve(file)));
}
