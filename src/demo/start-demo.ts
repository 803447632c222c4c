import { randomBytes } from 'node:crypto';
import type { RunningGateway, StartOptions } from '../app/start-gateway.js';
import { startGateway } from '../app/start-gateway.js';
import type { Config } from '../foundation/config/load-config.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import { storeDemoSettings } from '../foundation/config/demo-settings.js';
import type { DemoSettings } from '../foundation/config/demo-settings.js';
import { startDemoExtension } from '../features/extension/demo-extension.js';
import type { DemoExtension } from '../features/extension/demo-extension.js';

export interface Demo {
  readonly gateway: RunningGateway;
  readonly example: ExampleServer;
  /** With `withExtension`: the example extension and the emulated server behind it. */
  readonly extension: DemoExtension | undefined;
  close(): Promise<void>;
}

/**
 * The demo: the bundled example OAuth2 server on its own port, and the
 * gateway with two entries for it — GET-style, the default (so a browser
 * signed in at the example server is signed in silently), and POST-JSON,
 * which signs in the same users of the same server (it adopts them, so
 * `alice` is one user whichever of the two she takes). Asked for, it also
 * starts the example extension (examples/extension-xml) in front of its
 * emulated server, with an entry of type extension whose users are its own
 * (`acme:alice` is not the example server's `alice`): following the
 * README and then the banner never ends in `account_conflict`
 * (docs/entries.md, "User ids from several entries").
 */
export async function startDemo(
  config: Config,
  options: {
    readonly providerPort: number;
    readonly withExtension?: { readonly extensionPort: number; readonly acmePort: number };
    /** Settings the demo gives itself, kept in its data folder for `ssogate doctor`. */
    readonly settings?: DemoSettings;
  } & Pick<StartOptions, 'announce' | 'logger' | 'ownAdminPassword'>,
): Promise<Demo> {
  const { providerPort, withExtension, settings, ...startOptions } = options;
  const example = await startExampleServer({ host: '127.0.0.1', port: providerPort });
  let extension: DemoExtension | undefined;
  try {
    extension =
      withExtension === undefined
        ? undefined
        : await startDemoExtension({
            ...withExtension,
            secret: randomBytes(24).toString('base64url'),
          });
    if (settings !== undefined) await storeDemoSettings(config.dataDir, settings);
    const { getStyle, jsonStyle } = exampleEntries(example.url);
    const gateway = await startGateway(config, {
      entries: [
        { ...getStyle, isDefault: true },
        { ...jsonStyle, provisioning: { adoptExistingUsers: true } },
        ...(extension === undefined
          ? []
          : [{ ...extension.entry, provisioning: { userIdScope: 'entry' } }]),
      ],
      ...startOptions,
    });

    return {
      gateway,
      example,
      extension,
      async close() {
        await gateway.close();
        await extension?.close();
        await example.close();
      },
    };
  } catch (error) {
    await extension?.close();
    await example.close();
    throw error;
  }
}
