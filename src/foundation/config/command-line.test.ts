import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseLine, gatewayVersion, serverCommand, settingsHelp } from './command-line.js';

// The test build's src/main.js, one folder up from this file.
const mainScript = fileURLToPath(new URL('../../main.js', import.meta.url));

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What the process left in its working folder. */
  readonly files: string[];
}

/** Runs the server's entry point in an empty folder with no settings. */
async function runMain(args: readonly string[]): Promise<Outcome> {
  const folder = await mkdtemp(join(tmpdir(), 'ssogate-main-'));
  try {
    const { code, stdout, stderr } = await new Promise<Omit<Outcome, 'files'>>((resolve) => {
      const child = execFile(
        process.execPath,
        [mainScript, ...args],
        { cwd: folder, env: { PATH: process.env.PATH ?? '' }, timeout: 20_000 },
        (_error, out, err) => {
          resolve({ code: child.exitCode, stdout: out, stderr: err });
        },
      );
    });
    return { code, stdout, stderr, files: await readdir(folder) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('the server command line', () => {
  test('--help lists every setting, the data folder first, and starts nothing', async () => {
    const outcome = await runMain(['--help']);
    assert.equal(outcome.code, 0);
    assert.equal(outcome.stderr, '');
    assert.match(outcome.stdout, /^Usage: node dist\/main\.js \[--help \| --version\]/);
    const settingLines = outcome.stdout.split('\n').filter((line) => /^ {2}[A-Z_]+ /.test(line));
    assert.match(settingLines[0] ?? '', /^ {2}SSOGATE_DATA_DIR +a directory/);
    for (const name of ['SSOGATE_PUBLIC_URL', 'SSOGATE_DATABASE_URL', 'SSOGATE_UPSTREAM'])
      assert.ok(
        settingLines.some((line) => line.startsWith(`  ${name} `)),
        name,
      );
    assert.deepEqual(outcome.files, [], 'no data folder was created');
  });

  test('--version prints the version of package.json', async () => {
    const manifest = JSON.parse(
      await readFile(new URL('../../../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const outcome = await runMain(['--version']);
    assert.deepEqual(
      { code: outcome.code, stdout: outcome.stdout, files: outcome.files },
      { code: 0, stdout: `ssogate ${manifest.version}\n`, files: [] },
    );
    assert.equal(gatewayVersion(), manifest.version);
  });

  test('an unknown argument is refused with exit code 2, naming it, and starts nothing', async () => {
    const outcome = await runMain(['--port', '9000']);
    assert.equal(outcome.code, 2);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^ssogate: unknown argument "--port"\n/);
    assert.match(outcome.stderr, /SSOGATE_PORT/);
    assert.deepEqual(outcome.files, []);
  });

  test('no argument starts; both flags together, or one twice, are refused', () => {
    assert.deepEqual(serverCommand([]), { kind: 'start' });
    assert.equal(serverCommand(['--help', '--version']).kind, 'refuse');
    assert.equal(serverCommand(['-h', '-h']).kind, 'refuse');
    assert.equal(serverCommand(['-V']).kind, 'print');
  });

  test('the settings help names each setting once', () => {
    const names = settingsHelp()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.trim().split(' ')[0]);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.length > 30);
  });
});

describe('the database line of the command line', () => {
  const line = (url: string) =>
    databaseLine({ database: { kind: 'postgres', url }, dataDir: '/var/lib/ssogate' });

  test('a PostgreSQL URL is shown without its password', () => {
    assert.equal(
      line('postgres://ssogate:s3cret@db1:5432/ssogate'),
      'ssogate: the PostgreSQL database postgres://ssogate:***@db1:5432/ssogate',
    );
    assert.equal(
      line('postgresql://ssogate@db1/ssogate'),
      'ssogate: the PostgreSQL database postgresql://ssogate@db1/ssogate',
    );
  });

  // A replicated PostgreSQL is given as libpq's list of servers
  // (docs/operations.md#a-replicated-postgresql), which WHATWG URL parsing
  // refuses: every command that opens the storage failed on this line.
  test('a URL listing several servers is shown whole, without its password', () => {
    assert.equal(
      line('postgres://ssogate:s3cret@db1:5432,db2:5432/ssogate?target_session_attrs=read-write'),
      'ssogate: the PostgreSQL database postgres://ssogate:***@db1:5432,db2:5432/ssogate?target_session_attrs=read-write',
    );
  });
});
