// `npm start` and `npm run demo` (prestart, predemo): `npm run build` (the
// console with Vite, then the gateway with tsc: half a minute) only when
// something it reads changed since the last build this script made, so a
// start with nothing changed begins at once.
//
// The build reads src/ (the console imports from it too), console/, the
// TypeScript settings and the installed packages (package.json,
// package-lock.json). It is stale when dist/.build-stamp is missing, when
// one of its outputs is missing, or when any file or folder of those inputs
// is newer than the stamp. The stamp takes the time the build began, so a
// file saved while the build ran counts as changed. Folders count too: a
// deleted or renamed file changes its folder's time. Test files are left
// out: the build leaves them out (tsconfig.build.json), and the console
// imports none.
//
// `node scripts/build-if-stale.js --check` prints why a build is needed (or
// `up to date`) and builds nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const inputs = [
  'src',
  'console',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const outputs = [
  'dist/main.js',
  'dist/cli/ssogate.js',
  'dist/demo/main.js',
  'dist/console/index.html',
];
const stamp = 'dist/.build-stamp';

/** Every input path with its modification time, test files and node_modules left out. */
function* inputTimes() {
  for (const input of inputs) {
    if (!existsSync(input)) continue;
    yield [input, statSync(input).mtimeMs];
    if (!statSync(input).isDirectory()) continue;
    for (const entry of readdirSync(input, { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      if (path.split('/').includes('node_modules')) continue;
      if (entry.isFile() && /\.test\.tsx?$/.test(entry.name)) continue;
      yield [path, statSync(path).mtimeMs];
    }
  }
}

/** Why the build must run, or undefined when its outputs are newer than every input. */
function staleness() {
  if (!existsSync(stamp)) return `${stamp} is missing (no build by this script yet)`;
  const missing = outputs.find((output) => !existsSync(output));
  if (missing !== undefined) return `${missing} is missing`;
  const built = statSync(stamp).mtimeMs;
  for (const [path, time] of inputTimes()) {
    if (time >= built) return `${path} changed after the last build`;
  }
  return undefined;
}

const reason = staleness();
if (process.argv.includes('--check')) {
  process.stdout.write(`${reason ?? 'up to date'}\n`);
  process.exit(0);
}
if (reason === undefined) {
  process.stdout.write('The build is up to date: nothing changed since the last one.\n');
  process.exit(0);
}
process.stdout.write(`Building: ${reason}.\n`);
const began = new Date();
// npm sets npm_execpath to the npm that runs this script; run the same one.
const npm = process.env.npm_execpath;
const built = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
writeFileSync(stamp, '');
utimesSync(stamp, began, began);
