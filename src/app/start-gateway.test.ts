import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { verifyPassword } from '../local-accounts/password-hash.js';
import { capturingLogger } from '../test-support/log-capture.js';
import { testBackend } from '../test-support/test-backend.js';
import { startGateway } from './start-gateway.js';

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
