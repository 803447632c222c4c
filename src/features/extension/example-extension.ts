import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The example extension under examples/extension-xml is its own small
 * package of plain JavaScript; the demo and the tests load it from the
 * repository as it ships, whether they run from dist/ or build/.
 */
export interface RunningExtension {
  readonly url: string;
  close(): Promise<void>;
}

interface AcmeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Readonly<Record<string, string>> | undefined;
}

type AcmeFault =
  | { readonly delayMs: number }
  | { readonly status: number; readonly body?: string }
  | { readonly errorCode: string; readonly errorMsg?: string };

export interface AcmeServer {
  readonly url: string;
  readonly requests: AcmeRequest[];
  failNext(endpoint: 'authorize' | 'token' | 'userinfo', fault: AcmeFault): void;
  close(): Promise<void>;
}

export interface ExampleExtensionModule {
  startExtension(options: {
    readonly host?: string;
    readonly port?: number;
    readonly secret: string;
    readonly basePath?: string;
    readonly log?: (line: string) => void;
  }): Promise<RunningExtension>;
  startAcmeServer(options?: {
    readonly host?: string;
    readonly port?: number;
  }): Promise<AcmeServer>;
  readonly defaultAcmeClient: { readonly clientId: string; readonly secret: string };
}

const exampleDirectory = join('examples', 'extension-xml');

/** Imports a module of the example package by its file name, e.g. `signing.mjs`. */
export async function importExampleModule(file: string): Promise<unknown> {
  const relative = join(exampleDirectory, file);
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, relative))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`${relative} was not found above this module`);
    directory = parent;
  }
  return import(pathToFileURL(join(directory, relative)).href);
}

export async function loadExampleExtension(): Promise<ExampleExtensionModule> {
  return (await importExampleModule('index.mjs')) as ExampleExtensionModule;
}

/** An entry of type extension for the example extension in front of the emulated Acme server. */
export function acmeEntry(
  module: ExampleExtensionModule,
  extensionUrl: string,
  acmeUrl: string,
  extensionSecret: string,
): Record<string, unknown> {
  return {
    id: 'acme',
    name: 'Acme (through an extension)',
    enabled: true,
    type: 'extension',
    extensionUrl,
    extensionSecret,
    extensionSettings: { serverUrl: acmeUrl },
    appid: module.defaultAcmeClient.clientId,
    appsecret: module.defaultAcmeClient.secret,
  };
}
