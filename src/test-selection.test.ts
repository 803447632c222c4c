import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * scripts/run-tests.js chooses the test files of a run: on PostgreSQL and
 * Redis the files that read the backend settings (through their imports
 * too), with --compat those scripts/compat-tests.txt lists. `--list` prints
 * the choice without running it.
 */
const run = promisify(execFile);
// Compiled to build/src/, so the repository is two levels up.
const root = fileURLToPath(new URL('../../', import.meta.url));
const runTests = join(root, 'scripts/run-tests.js');
const noBackend = { ...process.env, SSOGATE_TEST_DATABASE_URL: '', SSOGATE_TEST_REDIS_URL: '' };
const postgres = { ...noBackend, SSOGATE_TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1/x' };

async function listed(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd = root,
): Promise<string[]> {
  const { stdout } = await run(process.execPath, [runTests, '--list', ...args], { cwd, env });
  return stdout.split('\n').filter((line) => line !== '');
}

/** Compiled modules in a temporary folder, `build/src/<name>` each. */
async function compiled(modules: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'ssogate-selection-'));
  for (const [name, text] of Object.entries(modules)) {
    const file = join(folder, 'build/src', name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return folder;
}

describe('on PostgreSQL and Redis', () => {
  test('only the files that read the backend settings run, found through their imports', async () => {
    const folder = await compiled({
      'settings.js': 'export const url = process.env.SSOGATE_TEST_REDIS_URL;',
      'fixture/index.js': "export * from '../settings.js';",
      'lazy.js': "export const load = () => import('./fixture/index.js');",
      'through-reexport.test.js': "import { url } from './fixture/index.js';",
      'through-import-call.test.js': "import { load } from './lazy.js';",
      'reads-itself.test.js': 'const url = process.env.SSOGATE_TEST_DATABASE_URL;',
      'pure.test.js': "import { parse } from './parser.js';",
      'parser.js': 'export function parse() {}',
      'cycle-a.test.js': "import './cycle-b.js';",
      'cycle-b.js': "import './cycle-a.test.js';",
    });
    try {
      assert.deepEqual(await listed(['build/src'], postgres, folder), [
        'build/src/reads-itself.test.js',
        'build/src/through-import-call.test.js',
        'build/src/through-reexport.test.js',
      ]);
      // SQLite alone runs every file; --all-files and a file named alone run on PostgreSQL too.
      assert.equal((await listed(['build/src'], noBackend, folder)).length, 5);
      assert.equal((await listed(['--all-files', 'build/src'], postgres, folder)).length, 5);
      assert.deepEqual(await listed(['build/src/pure.test.js'], postgres, folder), [
        'build/src/pure.test.js',
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test("in this repository: the gateway's tests run, the core's pure ones and the docs' do not", async () => {
    const files = await listed(['build/src', 'build/console'], postgres);
    for (const file of [
      'build/src/test-support/test-backend.test.js',
      'build/src/features/sign-in/sign-in-flow.test.js',
      'build/src/multi-instance/multi-instance.test.js',
      'build/src/foundation/storage/session-store.test.js',
      // Its storage from storage-fixtures.js, its events from storage-values.js.
      'build/src/foundation/storage/audit-store.test.js',
    ]) {
      assert.ok(files.includes(file), `${file} is not chosen`);
    }
    for (const file of [
      'build/src/core/template/render.test.js',
      'build/src/fuzz/parsers.fuzz.test.js',
      'build/src/readme.test.js',
      'build/console/src/route.test.js',
      // The growth suites time pure functions.
      'build/src/core/template/linear-time.test.js',
      'build/src/core/entry/mapping-linear-time.test.js',
      'build/src/fuzz/linear-time.test.js',
      // SQLite files of their own, or a Redis server of their own: a key, a
      // folder or a port from test-support, never the backend of the run.
      'build/src/foundation/storage/sqlite/open-sqlite-storage.test.js',
      'build/src/foundation/storage/sqlite/background-checkpoints.test.js',
      'build/src/foundation/entries/entry-registry.test.js',
      'build/src/foundation/http/session-cache.test.js',
      'build/src/foundation/storage/redis/redis-exec.test.js',
      'build/src/foundation/storage/redis/redis-revocation-feed.test.js',
    ]) {
      assert.ok(!files.includes(file), `${file} is chosen`);
    }
  });
});

test('--compat runs the files scripts/compat-tests.txt lists, each of them built', async () => {
  const list = await readFile(join(root, 'scripts/compat-tests.txt'), 'utf8');
  const sources = list
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
  assert.ok(sources.includes('src/foundation/storage/sqlite/open-sqlite-storage.test.ts'));
  assert.deepEqual(
    await listed(['--compat', 'build/src', 'build/console'], noBackend),
    sources.map((source) => `build/${source.replace(/\.ts$/, '.js')}`).sort(),
  );
});

test('--compat fails naming a listed file that is not built', async () => {
  const folder = await compiled({ 'a.test.js': '' });
  try {
    await mkdir(join(folder, 'scripts'));
    await writeFile(join(folder, 'scripts/compat-tests.txt'), 'src/a.test.ts\nsrc/gone.test.ts\n');
    const failed = await listed(['--compat', 'build/src'], noBackend, folder).then(
      () => assert.fail('the run went on'),
      (error: unknown) => error as { code: number; stderr: string },
    );
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /lists files that are not built: src\/gone\.test\.ts/);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
