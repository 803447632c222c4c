import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isSupportedNode, unsupportedNodeMessage } from './node-support.js';

const run = promisify(execFile);
// Compiled to build/src/app/, so the repository is three levels up.
const packageFile = fileURLToPath(new URL('../../../package.json', import.meta.url));

describe('isSupportedNode', () => {
  test('accepts 22.13 and later on the 22 line, and 24 and later', () => {
    for (const version of [
      '22.13.0',
      '22.20.1',
      'v22.13.0',
      '24.0.0',
      '24.21.0',
      '26.10.0',
      '27.0.0-pre',
    ]) {
      assert.equal(isSupportedNode(version), true, version);
    }
  });

  test('refuses 20, 22 before 22.13, and 23', () => {
    for (const version of ['18.20.8', '20.20.2', '22.12.0', '22.0.0', '23.11.1']) {
      assert.equal(isSupportedNode(version), false, version);
    }
  });

  test('reads ranges of several comparators and alternatives', () => {
    assert.equal(isSupportedNode('24.1.0', '>=24.2.0 || ^22.13'), false);
    assert.equal(isSupportedNode('22.13.5', '>=24.2.0 || ^22.13'), true);
    assert.throws(() => isSupportedNode('24.0.0', '~24.0'), /unsupported comparator/);
  });
});

test('the message names the range of package.json "engines", in one line', async () => {
  const { engines } = JSON.parse(await readFile(packageFile, 'utf8')) as {
    engines: { node: string };
  };
  const message = unsupportedNodeMessage('20.20.2', '/usr/bin/node') ?? '';
  assert.ok(message.includes(`Node.js ${engines.node} `), message);
  assert.ok(message.includes('20.20.2 (/usr/bin/node)'), message);
  assert.equal(message.indexOf('\n'), message.length - 1);
  assert.equal(unsupportedNodeMessage('24.0.0', '/usr/bin/node'), undefined);
});

// Debian 12's own Node.js is 20: the programs must refuse it before the SQLite addon loads.
const oldNode = '/usr/bin/node';
const [oldNodeVersion, oldNodePath] = existsSync(oldNode)
  ? (await run(oldNode, ['-p', 'process.versions.node + " " + process.execPath'])).stdout
      .trim()
      .split(' ')
  : [];
const noOldNode =
  oldNodeVersion === undefined
    ? `${oldNode} is absent: no unsupported Node.js to start the programs with`
    : isSupportedNode(oldNodeVersion)
      ? `${oldNode} is Node.js ${oldNodeVersion}, which is supported`
      : false;

describe('each program under an unsupported Node.js', { skip: noOldNode }, () => {
  for (const program of ['main.js', 'cli/ssogate.js', 'demo/main.js']) {
    test(`${program} says which versions it needs in one line, exits 1 and makes no data folder`, async () => {
      const cwd = await mkdtemp(join(tmpdir(), 'ssogate-node-'));
      try {
        const file = fileURLToPath(new URL(`../${program}`, import.meta.url));
        const failed = await run(
          oldNode,
          [file, ...(program.startsWith('cli/') ? ['doctor'] : [])],
          {
            cwd,
            env: { PATH: process.env.PATH, SSOGATE_DATA_DIR: join(cwd, 'data') },
          },
        ).then(
          () => assert.fail(`${program} started under Node.js ${oldNodeVersion}`),
          (error: unknown) => error as { code: number; stdout: string; stderr: string },
        );
        assert.equal(failed.code, 1);
        assert.equal(failed.stdout, '');
        assert.equal(
          failed.stderr,
          unsupportedNodeMessage(oldNodeVersion ?? '', oldNodePath ?? ''),
        );
        assert.deepEqual(await readdir(cwd), []);
      } finally {
        await rm(cwd, { recursive: true, force: true });
      }
    });
  }
});
