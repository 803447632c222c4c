import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../foundation/config/load-config.js';
import { verifyPassword } from '../features/local-accounts/password-hash.js';
import { capturingLogger } from '../test-support/log-capture.js';
import { testBackend } from '../test-support/test-backend.js';
import { startGateway, startLines } from './start-gateway.js';

/** Two starts on one data folder, as `npm start` makes them. */
describe('starting the gateway', () => {
  test('prints the console address and the next step; a later SSOGATE_ADMIN_PASSWORD is said to be ignored', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-start-'));
    const backend = await testBackend({ sqliteFile: join(dataDir, 'ssogate.db') });
    try {
      const env = {
        ...backend.env,
        SSOGATE_PORT: '0',
        SSOGATE_HOST: '127.0.0.1',
        SSOGATE_PUBLIC_URL: 'http://127.0.0.1:8080',
        SSOGATE_DATA_DIR: dataDir,
        SSOGATE_LOG_LEVEL: 'silent',
      };
      const start = async (adminPassword?: string) => {
        const lines: string[] = [];
        const log = capturingLogger();
        const config = loadConfig({
          ...env,
          ...(adminPassword === undefined ? {} : { SSOGATE_ADMIN_PASSWORD: adminPassword }),
        });
        const gateway = await startGateway(config, {
          announce: (line) => lines.push(line),
          logger: log.logger,
        });
        const adminHash = (await gateway.storage.users.findByUserId('admin'))?.passwordHash;
        await gateway.close();
        return { lines, log: log.lines.join(''), adminHash: adminHash ?? '' };
      };

      const first = await start('first-admin-password');
      assert.ok(
        first.lines.includes('Admin console: http://127.0.0.1:8080/_sso/admin (sign in as admin)'),
      );
      assert.ok(
        first.lines.some((line) =>
          /^Next: connect your OAuth2 server with New entry in the console/.test(line),
        ),
        first.lines.join('\n'),
      );
      assert.equal(
        first.lines.filter((line) => line.includes('/_sso/admin')).length,
        1,
        'the console address is printed once',
      );
      assert.doesNotMatch(first.log, /admin_password_ignored/);

      const second = await start('another-password');
      const warning = second.log
        .split('\n')
        .find((line) => line.includes('admin_password_ignored'));
      assert.ok(warning, second.log);
      const parsed = JSON.parse(warning) as { level: number; msg: string };
      assert.equal(parsed.level, 40, 'logged at warn');
      assert.match(parsed.msg, /^SSOGATE_ADMIN_PASSWORD ignored: an administrator already exists/);
      assert.match(parsed.msg, /ssogate admin reset-password/);
      assert.doesNotMatch(second.log, /another-password/);
      assert.ok(await verifyPassword('first-admin-password', second.adminHash));

      const third = await start();
      assert.doesNotMatch(third.log, /admin_password_ignored/);
    } finally {
      await backend.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the lines of a start', () => {
  const facts = {
    publicUrl: 'https://sso.corp.example/',
    address: 'http://0.0.0.0:8080',
    entriesFile: undefined,
    provisioned: [],
    upstreams: [],
    storedEntries: 0,
    defaultEntry: undefined,
  };

  test('each thing once: the console, the address, what was provisioned and proxied, the next step', () => {
    assert.deepEqual(
      startLines({
        ...facts,
        entriesFile: '/etc/ssogate/entries.yaml',
        provisioned: ['corp', 'github'],
        upstreams: [
          { host: 'app1.localhost:8080', prefix: '/', origin: 'http://127.0.0.1:3001' },
          { prefix: '/wiki', origin: 'http://10.0.0.5:3000' },
          { prefix: '/', origin: 'http://10.0.0.6:8000' },
        ],
        storedEntries: 2,
        defaultEntry: 'corp',
      }),
      [
        'Admin console: https://sso.corp.example/_sso/admin (sign in as admin)',
        'ssogate listens on http://0.0.0.0:8080; users reach it at https://sso.corp.example/',
        'Entries provisioned from /etc/ssogate/entries.yaml: corp, github',
        'Proxying: app1.localhost:8080/ → http://127.0.0.1:3001, /wiki → http://10.0.0.5:3000, / → http://10.0.0.6:8000',
        'Next: open https://sso.corp.example/ to sign in through the default entry, corp',
      ],
    );
  });

  test('no entry yet: the next step is the console; entries but no default: the chooser', () => {
    assert.equal(
      startLines(facts).at(-1),
      'Next: connect your OAuth2 server with New entry in the console, see docs/entries.md',
    );
    assert.equal(
      startLines({ ...facts, storedEntries: 3 }).at(-1),
      'Next: open https://sso.corp.example/ and choose how to sign in',
    );
    assert.equal(startLines(facts).length, 3);
  });
});
