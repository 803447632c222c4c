import type { AcmeServer, RunningExtension } from './example-extension.js';
import { acmeEntry, loadExampleExtension } from './example-extension.js';

export interface DemoExtension {
  readonly acme: AcmeServer;
  readonly extension: RunningExtension;
  /** The entry of type extension that signs in through them. */
  readonly entry: Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * The example extension and the emulated Acme server behind it, on
 * loopback, for `npm run demo -- --with-extension`. The secret is fresh at
 * each start: the demo provisions the entry with it every time.
 */
export async function startDemoExtension(options: {
  readonly extensionPort: number;
  readonly acmePort: number;
  readonly secret: string;
}): Promise<DemoExtension> {
  const example = await loadExampleExtension();
  const acme = await example.startAcmeServer({ host: '127.0.0.1', port: options.acmePort });
  let extension: RunningExtension;
  try {
    extension = await example.startExtension({
      host: '127.0.0.1',
      port: options.extensionPort,
      secret: options.secret,
    });
  } catch (error) {
    await acme.close();
    throw error;
  }
  return {
    acme,
    extension,
    entry: acmeEntry(example, extension.url, acme.url, options.secret),
    async close() {
      await extension.close();
      await acme.close();
    },
  };
}
