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
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith('-'));
const folders = args.filter((arg) => !arg.startsWith('-'));
if (folders.length === 0) {
  console.error('usage: node scripts/run-tests.js FOLDER|FILE.test.js... [node --test options]');
  process.exit(2);
}

const files = [];
for (const folder of folders) {
  if (folder.endsWith('.test.js')) {
    files.push(folder);
    continue;
  }
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (entry.isFile() && entry.name.endsWith('.test.js')) {
      files.push(join(entry.parentPath, entry.name));
    }
  }
}
if (files.length === 0) {
  console.error(`no *.test.js file under ${folders.join(', ')}: build the tests first`);
  process.exit(1);
}
files.sort();

const concurrency = options.some((option) => option.startsWith('--test-concurrency'))
  ? []
  : [`--test-concurrency=${availableParallelism()}`];
const reporter = options.some((option) => option.startsWith('--test-reporter'))
  ? []
  : ['--test-reporter=spec'];
const child = spawn(
  process.execPath,
  ['--test', ...concurrency, ...reporter, ...options, ...files],
  {
    stdio: 'inherit',
  },
);
child.on('exit', (code, signal) => {
  if (signal !== null) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
