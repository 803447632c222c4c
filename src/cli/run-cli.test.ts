import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Base64url } from '../foundation/crypto/hash.js';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import type { GatewayStorage } from '../app/open-storage.js';
import { withTestBackend } from '../test-support/test-backend.js';
import { runCommand } from './test-support/run-command.js';

const run = runCommand;

describe('ssogate token', () => {
  test('create prints the token once and stores only its hash', async () => {
    await withTestStorage(async (storage: GatewayStorage) => {
      const { code, out, err } = await run(['token', 'create', '--name', 'ci'], { storage });
      assert.equal(code, 0);
      const token = out.trim();
      assert.match(token, /^ssg_[A-Za-z0-9_-]{43}$/);
      assert.match(err, /not shown again/);
      assert.doesNotMatch(err, new RegExp(token));
      const [record] = await storage.apiTokens.list();
      assert.equal(record?.name, 'ci');
      assert.equal(record.tokenHash, sha256Base64url(token));
      assert.equal(
        (await storage.apiTokens.findActiveByHash(sha256Base64url(token)))?.id,
        record.id,
      );
      // Without --owner, the service "cli" owns it; without an expiry, it lasts 90 days.
      assert.deepEqual(record.owner, { kind: 'service', name: 'cli' });
      assert.equal(record.expiresAt, Date.parse('2024-07-30T12:00:00Z'));
      assert.match(err, /owned by service cli, valid until 2024-07-30T12:00:00.000Z/);
      const [event] = await storage.audit.list({ kind: 'token_change', limit: 1 });
      assert.deepEqual(event?.detail, {
        action: 'create',
        tokenId: record.id,
        name: 'ci',
        owner: 'service:cli',
        expiresAt: '2024-07-30T12:00:00.000Z',
      });
      assert.doesNotMatch(JSON.stringify(event), new RegExp(token));

      const list = await run(['token', 'list'], { storage });
      assert.equal(list.code, 0);
      assert.match(list.out, /^ID\s+NAME\s+OWNER\s+CREATED\s+LAST USED\s+REVOKED\s+EXPIRES\n/);
      assert.match(
        list.out,
        new RegExp(`${record.id}\\s+ci\\s+service:cli\\s+2024-05-01T12:00:00.000Z\\s+-\\s+-`),
      );
      assert.doesNotMatch(list.out, new RegExp(token.slice(4)));
    });
  });

  test('revoke stops a token; revoking twice or an unknown id fails with 1', async () => {
    await withTestStorage(async (storage: GatewayStorage) => {
      const token = (await run(['token', 'create', '--name', 'ci'], { storage })).out.trim();
      const [record] = await storage.apiTokens.list();
      assert.ok(record);
      const revoked = await run(['token', 'revoke', record.id], { storage });
      assert.equal(revoked.code, 0);
      assert.equal(await storage.apiTokens.findActiveByHash(sha256Base64url(token)), undefined);
      assert.match(
        (await run(['token', 'list'], { storage })).out,
        /ci\s+service:cli\s+\S+\s+-\s+2024-05-01T12:00:00.000Z/,
      );
      const again = await run(['token', 'revoke', record.id], { storage });
      assert.equal(again.code, 1);
      assert.match(again.err, /no unrevoked token/);
      // Once revoked, the name is free again.
      assert.equal((await run(['token', 'create', '--name', 'ci'], { storage })).code, 0);
    });
  });

  test('--owner names the service owner; --never-expires, only when given, makes a token without expiry', async () => {
    await withTestStorage(async (storage: GatewayStorage) => {
      const made = await run(
        ['token', 'create', '--name', 'deploy', '--owner', 'deploy-bot', '--never-expires'],
        { storage, env: { SSOGATE_API_TOKEN_DAYS: '7' } },
      );
      assert.equal(made.code, 0, made.err);
      assert.match(made.err, /owned by service deploy-bot, never expiring/);
      const short = await run(['token', 'create', '--name', 'short'], {
        storage,
        env: { SSOGATE_API_TOKEN_DAYS: '7' },
      });
      assert.equal(short.code, 0, short.err);
      const tokens = await storage.apiTokens.list();
      const deploy = tokens.find((token) => token.name === 'deploy');
      const shortLived = tokens.find((token) => token.name === 'short');
      assert.deepEqual(deploy?.owner, { kind: 'service', name: 'deploy-bot' });
      assert.equal(deploy.expiresAt, null);
      assert.equal(shortLived?.expiresAt, Date.parse('2024-05-08T12:00:00Z'));
      // A token stored as before owners were recorded is listed as having none.
      await storage.apiTokens.create({ id: 'old', name: 'old', tokenHash: 'h', createdAt: 1 });
      const list = await run(['token', 'list'], { storage });
      assert.match(list.out, /deploy\s+service:deploy-bot\s/);
      assert.match(list.out, /old\s+no owner \(made before owners were recorded\)\s/);

      const both = await run(
        ['token', 'create', '--name', 'x', '--expires-in', '1d', '--never-expires'],
        { storage },
      );
      assert.equal(both.code, 2);
      assert.match(both.err, /--expires-in and --never-expires/);
      const badOwner = await run(['token', 'create', '--name', 'x', '--owner', 'a b'], {
        storage,
      });
      assert.equal(badOwner.code, 1);
      assert.match(badOwner.err, /--owner must be/);
      for (const option of [['--owner', 'x'], ['--never-expires']]) {
        const misplaced = await run(['token', 'list', ...option], { storage });
        assert.equal(misplaced.code, 2, option.join(' '));
        assert.match(misplaced.err, /belongs to token create only/);
      }
      assert.equal((await storage.apiTokens.list()).length, 3);
    });
  });

  test('a bad name or a live duplicate is refused with 1', async () => {
    await withTestStorage(async (storage: GatewayStorage) => {
      assert.equal((await run(['token', 'create', '--name', 'has space'], { storage })).code, 1);
      assert.equal((await run(['token', 'create', '--name', 'ci'], { storage })).code, 0);
      const duplicate = await run(['token', 'create', '--name', 'ci'], { storage });
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.err, /named "ci" already/);
      assert.equal((await storage.apiTokens.list()).length, 1);
    });
  });

  test('a wrong command line prints the usage and exits 2', async () => {
    for (const argv of [
      [],
      ['token'],
      ['token', 'create'],
      ['token', 'create', '--name'],
      ['token', 'list', 'x'],
      ['token', 'revoke'],
      ['user', 'list'],
      ['token', 'list', '--bogus'],
    ]) {
      const { code, out, err } = await run(argv);
      assert.equal(code, 2, argv.join(' '));
      assert.equal(out, '');
      assert.match(err, /Usage:\n {2}ssogate token create --name NAME/);
    }
  });

  test('--help, alone or after a command, prints the usage and every setting, the data folder first', async () => {
    for (const argv of [
      ['--help'],
      ['-h'],
      ['admin', 'reset-password', '--help'],
      ['backup', '-h'],
    ]) {
      const { code, out, err } = await run(argv, { env: { SSOGATE_PORT: 'eighty' } });
      assert.equal(code, 0, argv.join(' '));
      assert.equal(err, '');
      assert.match(out, /^Usage:\n {2}ssogate token create --name NAME/);
      const settings = out.slice(out.indexOf('Settings, read from the environment'));
      assert.match(settings, /^Settings[^\n]*\n {2}SSOGATE_DATA_DIR +a directory/);
      assert.match(settings, /SSOGATE_DATABASE_URL/);
    }
  });

  test('--version and -V print the version of package.json and exit 0, whatever the settings', async () => {
    const manifest = JSON.parse(
      await readFile(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { code, out, err } = await run([flag], { env: { SSOGATE_PORT: 'eighty' } });
      assert.equal(code, 0, flag);
      assert.equal(err, '');
      assert.equal(out, `ssogate ${manifest.version}\n`);
    }
    // The usage lists it; after a command it is no option of that command.
    assert.match((await run(['--help'])).out, /\n {2}ssogate --version, -V +print the version/);
    assert.equal((await run(['token', 'list', '--version'])).code, 2);
  });

  test('the ssogate process answers --version with exit code 0', () => {
    const bin = fileURLToPath(new URL('./ssogate.js', import.meta.url));
    const answer = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    assert.equal(answer.status, 0, answer.stderr);
    assert.match(answer.stdout, /^ssogate \d+\.\d+\.\d+\S*\n$/);
  });

  test('an invalid configuration lists its problems and exits 1', async () => {
    const { code, err } = await run(['token', 'list'], {
      env: { SSOGATE_PORT: 'eighty', SSOGATE_LOG_LEVEL: 'loud' },
    });
    assert.equal(code, 1);
    assert.match(err, /configuration is invalid/);
    assert.match(err, /SSOGATE_PORT/);
    assert.match(err, /SSOGATE_LOG_LEVEL/);
  });

  test('opens the configured storage as the server does: a token made by one run is listed by the next', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-cli-'));
    try {
      // Two runs share the storage: a file on SQLite, one database on PostgreSQL.
      await withTestBackend(
        async (backend) => {
          const env = { ...backend.env, SSOGATE_DATA_DIR: dataDir };
          assert.equal((await run(['token', 'create', '--name', 'deploy'], { env })).code, 0);
          const list = await run(['token', 'list'], { env });
          assert.equal(list.code, 0);
          assert.match(list.out, /deploy/);
          // Each run says first which database it works on, on standard error.
          const [firstLine = ''] = list.err.split('\n');
          if (backend.name.startsWith('sqlite'))
            assert.equal(
              firstLine,
              `ssogate: the SQLite database ${join(dataDir, 'ssogate.db')} (data folder ${dataDir})`,
            );
          else assert.match(firstLine, /^ssogate: the PostgreSQL database postgres:\/\//);
          assert.doesNotMatch(list.out, /database/);
        },
        { sqliteFile: join(dataDir, 'ssogate.db') },
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
