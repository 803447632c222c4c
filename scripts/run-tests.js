// `npm test`: runs every `*.test.js` file under the folders named on the
// command line (or the `*.test.js` files named), and nothing else. `node --test <folder>` on Node.js 20 also
// runs files named `test-*.js`, `*-test.js`, `*_test.js` or `test.js`, and
// every file under a folder named `test`, so a product module with such a name
// would run as a test; Node.js 21 and later take glob patterns instead of
// folders, 20 does not, so the list is made here. Tests run as many at a time
// as the machine has processors for, unless --test-concurrency is given.
// The reporter is spec on every line (Node.js 22 writes TAP when the output is
// not a terminal), so a run ends with the list of the tests that failed.
// Other options (`--test-name-pattern=...`) are passed on to `node --test`.
// Each test has five minutes (`--test-timeout` to change it).
//
// Of the files found under the folders (files named one by one always run):
// - on PostgreSQL and Redis (SSOGATE_TEST_DATABASE_URL or
//   SSOGATE_TEST_REDIS_URL set), only those that read these settings, alone
//   or through their imports: the others run the same on every backend
//   (scripts/test-selection.js). `--all-files` runs them all.
// - with `--compat`, only those scripts/compat-tests.txt lists: the part of
//   the suite the other supported Node.js lines run.
// `--list` prints the files the run would start, one a line, and runs none.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { backendFiles, compatFiles, compatListFile, otherBackend } from './test-selection.js';

const ownOptions = new Set(['--list', '--compat', '--all-files']);
const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith('-') && !ownOptions.has(arg));
const folders = args.filter((arg) => !arg.startsWith('-'));
if (folders.length === 0) {
  console.error(
    'usage: node scripts/run-tests.js FOLDER|FILE.test.js... [--compat] [--all-files] [--list] [node --test options]',
  );
  process.exit(2);
}

const named = [];
let found = [];
for (const folder of folders) {
  if (folder.endsWith('.test.js')) {
    named.push(folder);
    continue;
  }
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (entry.isFile() && entry.name.endsWith('.test.js')) {
      found.push(join(entry.parentPath, entry.name));
    }
  }
}
if (named.length + found.length === 0) {
  console.error(`no *.test.js file under ${folders.join(', ')}: build the tests first`);
  process.exit(1);
}
if (args.includes('--compat')) {
  const { chosen, missing } = compatFiles(found, folders);
  if (missing.length > 0) {
    console.error(`${compatListFile} lists files that are not built: ${missing.join(', ')}`);
    process.exit(1);
  }
  found = chosen;
}
if (otherBackend(process.env) && !args.includes('--all-files')) {
  const all = found.length;
  found = backendFiles(found);
  console.error(
    `PostgreSQL/Redis: ${found.length} of ${all} test files read the backend settings and run; ` +
      'the others run the same on every backend (scripts/test-selection.js; --all-files runs them all).',
  );
}
const files = [...named, ...found].sort();
if (args.includes('--list')) {
  process.stdout.write(files.map((file) => `${file}\n`).join(''));
  process.exit(0);
}
if (files.length === 0) {
  console.error('no test file selected');
  process.exit(1);
}

const concurrency = options.some((option) => option.startsWith('--test-concurrency'))
  ? []
  : [`--test-concurrency=${availableParallelism()}`];
const reporter = options.some((option) => option.startsWith('--test-reporter'))
  ? []
  : ['--test-reporter=spec'];
// A test that hangs fails after five minutes instead of holding the run to
// CI's limit. `--test-force-exit` is not used: it ends a file's process once
// the tests it knows of have ended, and a test whose subtests start after an
// await can be cut off uncounted. A fixture that fails closes what it opened
// instead (test-support/gateway-fixture.ts).
const timeout = options.some((option) => option.startsWith('--test-timeout'))
  ? []
  : ['--test-timeout=300000'];
const child = spawn(
  process.execPath,
  ['--test', ...concurrency, ...reporter, ...timeout, ...options, ...files],
  {
    stdio: 'inherit',
  },
);
child.on('exit', (code, signal) => {
  if (signal !== null) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
