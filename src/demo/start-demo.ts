import type { RunningGateway } from '../app/start-gateway.js';
import { startGateway } from '../app/start-gateway.js';
import type { Config } from '../config/load-config.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';

export interface Demo {
  readonly gateway: RunningGateway;
  readonly example: ExampleServer;
  close(): Promise<void>;
}

/**
 * The demo: the bundled example OAuth2 server on its own port, and the
 * gateway with two entries for it — GET-style, the default (so a browser
 * signed in at the example server is signed in silently), and POST-JSON.
 */
export async function startDemo(
  config: Config,
  options: { readonly providerPort: number; readonly announce?: (line: string) => void },
): Promise<Demo> {
  const example = await startExampleServer({ host: '127.0.0.1', port: options.providerPort });
  try {
    const { getStyle, jsonStyle } = exampleEntries(example.url);
    const gateway = await startGateway(config, {
      entries: [{ ...getStyle, isDefault: true }, jsonStyle],
      ...(options.announce === undefined ? {} : { announce: options.announce }),
    });
    return {
      gateway,
      example,
      async close() {
        await gateway.close();
        await example.close();
      },
    };
  } catch (error) {
    await example.close();
    throw error;
  }
}
