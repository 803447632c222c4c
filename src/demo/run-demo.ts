/**
 * `npm run demo`, read by main.ts once the Node.js is known to be supported:
 * the gateway in front of the bundled example OAuth2 server, with its data
 * in ./data-demo. Open the printed address and sign in.
 */
import { ConfigError, loadConfig } from '../foundation/config/load-config.js';
import { defaultUsers } from '../example-server/index.js';
import { demoPorts } from './demo-ports.js';
import { startDemo } from './start-demo.js';

async function main(): Promise<void> {
  const config = loadConfig({
    SSOGATE_DATA_DIR: './data-demo',
    SSOGATE_ADMIN_PASSWORD: 'demo-admin-password',
    // The example server (and extension) listen on loopback, which entries may not call unless allowed.
    SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
    ...process.env,
  });
  // `npm run demo -- --with-extension` (or SSOGATE_DEMO_EXTENSION=1) adds the example extension.
  const withExtension =
    process.argv.includes('--with-extension') || process.env.SSOGATE_DEMO_EXTENSION === '1';
  const ports = demoPorts(process.env);
  const demo = await startDemo(config, {
    providerPort: ports.provider,
    ...(withExtension
      ? { withExtension: { extensionPort: ports.extension, acmePort: ports.acme } }
      : {}),
  });
  const alice = defaultUsers[0];
  process.stdout.write(
    [
      '',
      `  Example OAuth2 server: ${demo.example.url}`,
      `  Open ${config.publicUrl}/ and sign in at the example server as ${alice?.username ?? 'alice'} / ${alice?.password ?? 'alice-password'}.`,
      `  Local administrator: admin / demo-admin-password (chooser: ${config.publicUrl}/_sso/login).`,
      ...(demo.extension === undefined
        ? []
        : [
            `  Example extension: ${demo.extension.extension.url}, in front of the emulated Acme server ${demo.extension.acme.url}.`,
            `  Sign in through it at ${config.publicUrl}/_sso/login/acme as alice / alice-password.`,
          ]),
      '',
    ].join('\n'),
  );
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
