import { randomBytes } from 'node:crypto';
import type { RunningGateway } from '../app/start-gateway.js';
import { startGateway } from '../app/start-gateway.js';
import type { Config } from '../foundation/config/load-config.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
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
 * signed in at the example server is signed in silently), and POST-JSON.
 * Asked for, it also starts the example extension (examples/extension-xml)
 * in front of its emulated server, with an entry of type extension.
 */
export async function startDemo(
  config: Config,
  options: {
    readonly providerPort: number;
    readonly announce?: (line: string) => void;
    readonly withExtension?: { readonly extensionPort: number; readonly acmePort: number };
  },
): Promise<Demo> {
  const example = await startExampleServer({ host: '127.0.0.1', port: options.providerPort });
  let extension: DemoExtension | undefined;
  try {
    extension =
      options.withExtension === undefined
        ? undefined
        : await startDemoExtension({
            ...options.withExtension,
            secret: randomBytes(24).toString('base64url'),
          });
    const { getStyle, jsonStyle } = exampleEntries(example.url);
    const gateway = await startGateway(config, {
      entries: [
        { ...getStyle, isDefault: true },
        jsonStyle,
        ...(extension === undefined ? [] : [extension.entry]),
      ],
      ...(options.announce === undefined ? {} : { announce: options.announce }),
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
