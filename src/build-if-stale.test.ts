import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * scripts/build-if-stale.js (prestart, predemo) skips `npm run build` when
 * nothing the build reads changed since its last build. Each test lays out a
 * small copy of the repository's shape in a temporary folder, with known
 * times, and asks the script there.
 */
const run = promisify(execFile);
// Compiled to build/src/, so the repository is two levels up.
const script = fileURLToPath(new URL('../../scripts/build-if-stale.js', import.meta.url));

const inputs = [
  'src/main.ts',
  'src/app/start.ts',
  'src/app/start.test.ts',
  'console/index.html',
  'console/src/app.tsx',
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
const before = new Date('2026-01-01T00:00:00Z');
const built = new Date('2026-01-02T00:00:00Z');
const after = new Date('2026-01-03T00:00:00Z');

async function touch(root: string, path: string, time: Date): Promise<void> {
  const file = join(root, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, '', { flag: 'a' });
  await utimes(file, time, time);
}

/** A checkout built on `built` from inputs of `before`, every folder of `before` too. */
async function builtCheckout(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ssogate-stale-'));
  for (const path of [...inputs, 'src/app/old.ts']) await touch(root, path, before);
  for (const path of outputs) await touch(root, path, built);
  await touch(root, 'dist/.build-stamp', built);
  for (const folder of ['src', 'src/app', 'console', 'console/src']) {
    await utimes(join(root, folder), before, before);
  }
  return root;
}

async function check(root: string): Promise<string> {
  const { stdout } = await run(process.execPath, [script, '--check'], { cwd: root });
  return stdout.trim();
}

async function inCheckout(body: (root: string) => Promise<void>): Promise<void> {
  const root = await builtCheckout();
  try {
    await body(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

describe('scripts/build-if-stale.js --check', () => {
  test('a build newer than every input is up to date', () =>
    inCheckout(async (root) => {
      assert.equal(await check(root), 'up to date');
    }));

  test('a source, a console file, the lockfile or a TypeScript setting saved after it is stale', () =>
    inCheckout(async (root) => {
      for (const path of [
        'src/app/start.ts',
        'console/src/app.tsx',
        'package-lock.json',
        'tsconfig.build.json',
      ]) {
        await touch(root, path, after);
        assert.equal(await check(root), `${path} changed after the last build`);
        await utimes(join(root, path), before, before);
      }
    }));

  test('a deleted source is a change (its folder is newer)', () =>
    inCheckout(async (root) => {
      await rm(join(root, 'src/app/old.ts'));
      assert.equal(await check(root), 'src/app changed after the last build');
    }));

  test('a changed test file is not: the build leaves tests out', () =>
    inCheckout(async (root) => {
      await touch(root, 'src/app/start.test.ts', after);
      assert.equal(await check(root), 'up to date');
    }));

  test('no stamp, or a missing output, is stale', () =>
    inCheckout(async (root) => {
      await rm(join(root, 'dist/console/index.html'));
      assert.equal(await check(root), 'dist/console/index.html is missing');
      await rm(join(root, 'dist/.build-stamp'));
      assert.equal(await check(root), 'dist/.build-stamp is missing (no build by this script yet)');
    }));
});

test('a stale checkout is built once, then started without building', () =>
  inCheckout(async (root) => {
    // Stands for npm: records `npm run build` and builds nothing.
    const npm = join(root, 'fake-npm.mjs');
    await writeFile(
      npm,
      "import { appendFileSync } from 'node:fs'; appendFileSync('calls', process.argv.slice(2).join(' ') + '\\n');",
    );
    await touch(root, 'src/main.ts', after);
    const env = { ...process.env, npm_execpath: npm };
    const started = Date.now();
    const first = await run(process.execPath, [script], { cwd: root, env });
    assert.match(first.stdout, /^Building: src\/main\.ts changed after the last build\.$/m);
    assert.equal(await readFile(join(root, 'calls'), 'utf8'), 'run build\n');
    // The stamp takes the time the build began: a file saved during the build is a change.
    const stamped = (await stat(join(root, 'dist/.build-stamp'))).mtimeMs;
    assert.ok(stamped >= started - 1000 && stamped <= Date.now(), String(stamped));
    const second = await run(process.execPath, [script], { cwd: root, env });
    assert.match(second.stdout, /up to date/);
    assert.equal(await readFile(join(root, 'calls'), 'utf8'), 'run build\n');
  }));
