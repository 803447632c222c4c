/**
 * `npm run demo`, read by main.ts once the Node.js is known to be supported:
 * the gateway in front of the bundled example OAuth2 server, with its data
 * in ./data-demo. Open the printed address and sign in.
 */
import { ConfigError, loadConfig } from '../foundation/config/load-config.js';
import { defaultUsers } from '../example-server/index.js';
import { demoBanner, unchangedAdminPassword } from './demo-banner.js';
import { demoAdminPassword, demoEnvironment, demoStoredSettings } from './demo-environment.js';
import { demoPorts } from './demo-ports.js';
import { startDemo } from './start-demo.js';

async function main(): Promise<void> {
  const env = demoEnvironment(process.env);
  const config = loadConfig(env);
  // `npm run demo -- --with-extension` (or SSOGATE_DEMO_EXTENSION=1) adds the example extension.
  const withExtension =
    process.argv.includes('--with-extension') || process.env.SSOGATE_DEMO_EXTENSION === '1';
  const ports = demoPorts(process.env);
  const demo = await startDemo(config, {
    providerPort: ports.provider,
    settings: demoStoredSettings(env),
    ownAdminPassword: demoAdminPassword,
    ...(withExtension
      ? { withExtension: { extensionPort: ports.extension, acmePort: ports.acme } }
      : {}),
  });
  const alice = defaultUsers[0] ?? { username: 'alice', password: 'alice-password' };
  const lines = demoBanner({
    publicUrl: config.publicUrl,
    dataDir: env.SSOGATE_DATA_DIR ?? './data-demo',
    exampleUrl: demo.example.url,
    exampleUser: alice,
    adminPassword: await unchangedAdminPassword(demo.gateway.storage.users, config.adminPassword),
    extension:
      demo.extension === undefined
        ? undefined
        : {
            extensionUrl: demo.extension.extension.url,
            acmeUrl: demo.extension.acme.url,
            entryId: 'acme',
            user: { username: 'alice', password: 'alice-password' },
          },
  });
  process.stdout.write(lines.join('\n'));
  const stop = () => {
    void demo.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError
      ? `${error.message}\n`
      : `demo failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
