// `npm run test:one -- src/foundation/web/return-to.test.ts [more files] [node --test options]`:
// the inner loop. Compiles incrementally (only what changed since the last
// run; the build info lives in build/, so `npm run build:test`, which empties
// build/, starts it afresh) and runs the named test files alone, from their
// compiled twins under build/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith('-'));
const sources = args.filter((arg) => !arg.startsWith('-'));
if (sources.length === 0) {
  console.error('usage: npm run test:one -- src/…/name.test.ts [more files] [node --test options]');
  process.exit(2);
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(
  process.execPath,
  [tsc, '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'build/.tsbuildinfo'],
  { stdio: 'inherit' },
);
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const files = sources.map((source) => `build/${source.replace(/\.tsx?$/, '.js')}`);
const absent = files.filter((file) => !existsSync(file));
if (absent.length > 0) {
  console.error(
    `not compiled (is it under src/, bench/, soak/ or console/src/?): ${absent.join(', ')}`,
  );
  process.exit(1);
}
const run = spawnSync(process.execPath, ['scripts/run-tests.js', ...files, ...options], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
