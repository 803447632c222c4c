import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../foundation/config/load-config.js';
import { runCommand } from '../cli/test-support/run-command.js';
import { capturingLogger } from '../test-support/log-capture.js';
import { freePort } from '../test-support/free-port.js';
import type { TestBackend } from '../test-support/test-backend.js';
import { testBackend, testBackendName } from '../test-support/test-backend.js';
import { defaultUsers } from '../example-server/index.js';
import { demoBanner, unchangedAdminPassword } from './demo-banner.js';
import { demoAdminPassword, demoEnvironment, demoStoredSettings } from './demo-environment.js';
import type { Demo } from './start-demo.js';
import { startDemo } from './start-demo.js';

/**
 * The demo's data folder across restarts and the commands the README runs
 * on it: `npm run demo` as src/demo/run-demo.ts starts it, on loopback ports.
 */
describe("the demo's data folder", () => {
  let folder: string;
  let backend: TestBackend;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'ssogate-demo-folder-'));
    backend = await testBackend({ sqliteFile: join(folder, 'data-demo', 'ssogate.db') });
    const port = await freePort();
    env = {
      ...backend.env,
      SSOGATE_DATA_DIR: join(folder, 'data-demo'),
      SSOGATE_PORT: String(port),
      SSOGATE_HOST: '127.0.0.1',
      SSOGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SSOGATE_LOG_LEVEL: 'silent',
    };
  });
  after(async () => {
    await backend.cleanup();
    await rm(folder, { recursive: true, force: true });
  });

  /** Starts the demo as `npm run demo` does, over `extra` settings, reading its log. */
  async function start(extra: NodeJS.ProcessEnv = {}): Promise<{ demo: Demo; log: string[] }> {
    const demoEnv = demoEnvironment({ ...env, ...extra });
    const log = capturingLogger();
    const demo = await startDemo(loadConfig(demoEnv), {
      providerPort: 0,
      withExtension: { extensionPort: 0, acmePort: 0 },
      settings: demoStoredSettings(demoEnv),
      ownAdminPassword: demoAdminPassword,
      announce: () => undefined,
      logger: log.logger,
    });
    return { demo, log: log.lines };
  }

  async function bannerOf(demo: Demo): Promise<string> {
    return demoBanner({
      publicUrl: env.SSOGATE_PUBLIC_URL ?? '',
      dataDir: './data-demo',
      exampleUrl: demo.example.url,
      exampleUser: defaultUsers[0] ?? { username: 'alice', password: 'alice-password' },
      adminPassword: await unchangedAdminPassword(demo.gateway.storage.users, demoAdminPassword),
      extension: undefined,
    }).join('\n');
  }

  test('a restart does not warn that the demo ignores its own SSOGATE_ADMIN_PASSWORD', async () => {
    const first = await start();
    await first.demo.close();
    const second = await start();
    await second.demo.close();
    assert.doesNotMatch(second.log.join(''), /admin_password_ignored/);
    // A password someone typed is still said to be ignored.
    const typed = await start({ SSOGATE_ADMIN_PASSWORD: 'typed-by-someone' });
    await typed.demo.close();
    assert.match(typed.log.join(''), /admin_password_ignored/);
  });

  test("doctor on the demo's folder passes its entries, judged with the demo's loopback allowance", async () => {
    const { demo } = await start();
    try {
      // As the README runs it: the data folder named, no SSOGATE_OUTBOUND_ALLOW.
      const { code, out } = await runCommand(['doctor', '--json'], { env });
      const report = JSON.parse(out) as {
        ok: boolean;
        findings: { status: string; check: string; subject: string; detail: string }[];
      };
      const problems = report.findings.filter((finding) => finding.status !== 'ok');
      // The demo is plain http on this machine: said once, as a warning, and
      // nothing else; on a shared database, also that the secret key is this
      // instance's own (the demo runs one).
      assert.deepEqual(
        problems.map((finding) => `${finding.status} ${finding.check}`),
        testBackendName() === 'sqlite'
          ? ['warn public URL']
          : ['warn public URL', 'warn secret key'],
        out,
      );
      assert.equal(code, 1);
      assert.ok(
        report.findings.some((finding) =>
          finding.detail.includes(
            "the demo's own settings applied: SSOGATE_OUTBOUND_ALLOW=127.0.0.1",
          ),
        ),
        out,
      );
      for (const id of ['example-get', 'example-json', 'acme'])
        assert.ok(
          report.findings.some((finding) => finding.check.includes(id)),
          `entry ${id} checked: ${out}`,
        );
    } finally {
      await demo.close();
    }
  });

  test("the banner gives the administrator's password until it is reset, then says it changed", async () => {
    const { demo } = await start();
    try {
      assert.match(await bannerOf(demo), /Local administrator: admin \/ demo-admin-password \(/);
      const reset = await runCommand(['admin', 'reset-password'], { env });
      assert.equal(reset.code, 0, reset.err);
      const banner = await bannerOf(demo);
      assert.doesNotMatch(banner, /demo-admin-password/);
      assert.match(
        banner,
        /Local administrator: admin, its password changed since the demo set it .*SSOGATE_DATA_DIR=\.\/data-demo npm run ssogate -- admin reset-password/,
      );
    } finally {
      await demo.close();
    }
  });
});
