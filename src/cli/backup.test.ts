import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningGateway } from '../app/start-gateway.js';
import { startGateway } from '../app/start-gateway.js';
import { loadConfig } from '../foundation/config/load-config.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import { TestBrowser } from '../test-support/browser.js';
import { freePort } from '../test-support/free-port.js';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import { testBackend } from '../test-support/test-backend.js';
import { runCommand } from './test-support/run-command.js';

const people = Array.from({ length: 40 }, (_, index) => `p${index}`);

/** A whole sign-in at the GET-style entry; resolves where the callback sends the browser. */
async function signIn(gatewayUrl: string, exampleUrl: string, username: string): Promise<string> {
  const browser = new TestBrowser();
  await signInAtExample(browser, exampleUrl, username);
  const response = await browser.open(`${gatewayUrl}/_sso/login/example-get?return_to=/landing`, {
    maxHops: 2,
  });
  return `${response.status} ${response.headers.get('location') ?? ''}`;
}

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

describe('ssogate backup and restore (SQLite)', () => {
  let example: ExampleServer;
  let dir: string;

  before(async () => {
    example = await startExampleServer({
      host: '127.0.0.1',
      users: people.map((username) => ({
        username,
        password: `${username}-password`,
        userId: username,
        name: username,
        email: `${username}@example.test`,
        department: 'Testing',
      })),
    });
    dir = await mkdtemp(join(tmpdir(), 'ssogate-backup-'));
  });

  after(async () => {
    await example.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The settings of a gateway on its own data folder, its key generated there. */
  async function envFor(name: string): Promise<Record<string, string>> {
    const entriesFile = join(dir, 'entries.json');
    await writeFile(
      entriesFile,
      JSON.stringify({ entries: [exampleEntries(example.url).getStyle] }),
    );
    const port = await freePort();
    return {
      SSOGATE_DATA_DIR: join(dir, name),
      SSOGATE_PORT: String(port),
      SSOGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SSOGATE_HOST: '127.0.0.1',
      SSOGATE_ADMIN_PASSWORD: 'backup-test-admin',
      SSOGATE_ENTRIES_FILE: entriesFile,
      SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
      SSOGATE_LOG_LEVEL: 'silent',
    };
  }

  async function start(env: Record<string, string>): Promise<RunningGateway> {
    const gateway = await startGateway(loadConfig(env), { announce: () => undefined });
    return gateway;
  }

  test('a backup taken during sign-ins restores into a fresh folder that signs people in', async () => {
    const liveEnv = await envFor('live');
    const live = await start(liveEnv);
    const backupFile = join(dir, 'saved.db');
    const signedInBefore = people.slice(0, 5);
    try {
      const url = live.address;
      // Some sign-ins done before, more running while the backup is taken.
      for (const username of signedInBefore)
        assert.equal(await signIn(url, example.url, username), '302 /landing');
      let next = 5;
      let running = true;
      const worker = async (): Promise<number> => {
        let done = 0;
        while (running && next < people.length) {
          const username = people[next++] ?? '';
          assert.equal(await signIn(url, example.url, username), '302 /landing');
          done += 1;
        }
        return done;
      };
      const workers = [worker(), worker(), worker()];
      const backup = await runCommand(['backup', backupFile], { env: liveEnv });
      running = false;
      const during = (await Promise.all(workers)).reduce((a, b) => a + b, 0);
      assert.equal(backup.code, 0, backup.err);
      assert.match(backup.out, /Copied the secret key to .*saved\.db\.key/);
      assert.ok(during > 0, 'sign-ins ran beside the backup');
    } finally {
      await live.close();
    }
    assert.equal(await modeOf(backupFile), 0o600);
    assert.equal(await modeOf(`${backupFile}.key`), 0o600);
    assert.equal(
      await readFile(`${backupFile}.key`, 'utf8'),
      await readFile(join(dir, 'live', 'secret.key'), 'utf8'),
    );

    // A second backup to the same file is refused without --force.
    const again = await runCommand(['backup', backupFile], { env: liveEnv });
    assert.equal(again.code, 1);
    assert.match(again.err, /exists already; add --force/);

    const freshEnv = await envFor('fresh');
    const restored = await runCommand(['restore', backupFile], { env: freshEnv });
    assert.equal(restored.code, 0, restored.err);
    assert.match(restored.out, /Restored the secret key/);
    // Over an existing database, only with --force.
    const refused = await runCommand(['restore', backupFile], { env: freshEnv });
    assert.equal(refused.code, 1);
    assert.match(refused.err, /Stop the gateway, then add --force/);
    assert.equal((await runCommand(['restore', backupFile, '--force'], { env: freshEnv })).code, 0);

    const revived = await start(freshEnv);
    try {
      // The users signed in before the backup are there...
      for (const username of signedInBefore)
        assert.ok(await revived.storage.users.findByUserId(username), `${username} restored`);
      // ...and the entry's app secret opens with the restored key: the token call needs it.
      const entry = await revived.storage.entries.get('example-get');
      assert.equal(entry?.input.appsecret, exampleEntries(example.url).getStyle.appsecret);
      assert.equal(await signIn(revived.address, example.url, 'p0'), '302 /landing');
    } finally {
      await revived.close();
    }
  });

  test('restore refuses a file that is no ssogate database', async () => {
    const notDatabase = join(dir, 'notes.txt');
    await writeFile(notDatabase, 'not a database');
    const result = await runCommand(['restore', notDatabase], { env: await envFor('other') });
    assert.equal(result.code, 1);
    assert.match(result.err, /not (a readable SQLite|an ssogate) database|cannot be opened/);
  });

  test('each command first needs the side it copies from', async () => {
    const env = await envFor('never-started');
    const backup = await runCommand(['backup', join(dir, 'unwritten.db')], { env });
    assert.equal(backup.code, 1);
    assert.match(backup.err, /There is no database at \S*never-started/);
    const restore = await runCommand(['restore', join(dir, 'absent.db')], { env });
    assert.equal(restore.code, 1);
    assert.match(restore.err, /There is no backup at \S*absent\.db/);
  });

  test('a backup into a missing folder names the folder, coded, and writes nothing', async () => {
    const env = await envFor('folder-check');
    await (await start(env)).close();
    const folder = join(dir, 'not-made');
    const result = await runCommand(['backup', join(folder, 'saved.db')], { env });
    assert.equal(result.code, 1);
    assert.match(
      result.err,
      new RegExp(
        `ssogate: backup_folder_missing: There is no folder ${folder} to write saved\\.db in`,
      ),
    );
    assert.doesNotMatch(result.err, /\.tmp/);
  });

  test('backup and restore need exactly one FILE', async () => {
    const result = await runCommand(['backup'], { env: await envFor('other') });
    assert.equal(result.code, 2);
    assert.match(result.err, /backup needs one FILE/);
  });
});

describe('ssogate backup on PostgreSQL', () => {
  test('points to pg_dump and pg_restore', async () => {
    const backend = await testBackend();
    try {
      const env = {
        ...backend.env,
        SSOGATE_DATABASE_URL: 'postgres://ssogate@127.0.0.1:1/ssogate',
      };
      const result = await runCommand(['backup', join(tmpdir(), 'never-written.db')], { env });
      assert.equal(result.code, 1);
      assert.match(result.err, /pg_dump --format=custom/);
      assert.match(result.err, /pg_restore --clean/);
    } finally {
      await backend.cleanup();
    }
  });
});
