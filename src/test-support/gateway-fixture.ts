import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/build-app.js';
import { createGateway } from '../app/create-gateway.js';
import type { AppGateway } from '../app/create-gateway.js';
import { openStorage } from '../app/open-storage.js';
import { loadConfig } from '../foundation/config/load-config.js';
import { compileEntry } from '../core/index.js';
import { sha256Base64url } from '../foundation/crypto/hash.js';
import type { ExampleEntries, ExampleServer, ExampleUser } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import type { GatewayStorage } from '../app/open-storage.js';
import { TestBrowser } from './browser.js';
import { freePort } from './free-port.js';
import { capturingLogger } from './log-capture.js';
import { testBackend } from './test-backend.js';

export interface TestGatewayOptions {
  /** Entries to store, made from the example server's presets; default: none. */
  readonly entries?: (
    presets: ExampleEntries,
    exampleUrl: string,
  ) => readonly Record<string, unknown>[];
  /** Extra SSOGATE_* settings. */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra settings that name the gateway's own port (hosts of several names on one listener). */
  readonly envOfPort?: (port: number) => Readonly<Record<string, string>>;
  readonly clock?: () => number;
  /** How often the sessions of open WebSockets are checked again (create-gateway.ts). */
  readonly upgradeRecheckMs?: number;
  /** People who can sign in at the example server (password: `<username>-password`). */
  readonly usernames?: readonly string[];
  /** Groups the example server's standard style reports for a username. */
  readonly groups?: Readonly<Record<string, readonly string[]>>;
  /** The example server's registered client; its secret is the entries' appsecret. */
  readonly client?: { readonly appid: string; readonly secret: string };
  /** Put before every code and access token the example server issues, to find them later. */
  readonly issuedPrefix?: string;
  /** What the gateway uses of the storage opened for it (a wrapper that counts calls). */
  readonly wrapStorage?: (storage: GatewayStorage) => GatewayStorage;
  /** The console build served at /_sso/admin; default: the package's own (console-files.ts). */
  readonly consoleDir?: string;
}

export interface TestGateway {
  readonly url: string;
  readonly example: ExampleServer;
  readonly storage: GatewayStorage;
  readonly gateway: AppGateway;
  readonly app: FastifyInstance;
  /** Every log line the gateway wrote, as JSON text. */
  readonly logLines: string[];
  browser(): TestBrowser;
  close(): Promise<void>;
}

/**
 * A gateway on a loopback port with its own temporary data directory and
 * fresh storage of the suite's backend (in-memory SQLite, or PostgreSQL and
 * Redis: test-backend.ts), in front of a freshly started example OAuth2 server.
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const example = await startExampleServer({
    host: '127.0.0.1',
    ...(options.client === undefined ? {} : { clients: [options.client] }),
    ...(options.issuedPrefix === undefined ? {} : { issuedPrefix: options.issuedPrefix }),
    ...(options.usernames === undefined
      ? {}
      : {
          users: options.usernames.map((name) => ({
            ...exampleUser(name),
            ...(options.groups?.[name] === undefined ? {} : { groups: options.groups[name] }),
          })),
        }),
  });
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-test-'));
  const backend = await testBackend();
  const url = `http://127.0.0.1:${port}`;
  let config;
  let storage;
  try {
    config = loadConfig({
      SSOGATE_PORT: String(port),
      SSOGATE_HOST: '127.0.0.1',
      SSOGATE_PUBLIC_URL: url,
      SSOGATE_DATA_DIR: dataDir,
      // The example server listens on loopback, which entries may not call unless allowed.
      SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
      ...backend.env,
      ...options.env,
      ...options.envOfPort?.(port),
    });
    storage = await openStorage(config);
  } catch (error) {
    await backend.cleanup();
    await example.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { logger, lines } = capturingLogger();
  let gateway;
  let app;
  try {
    const entries =
      options.entries?.(exampleEntries(example.url, options.client), example.url) ?? [];
    for (const [index, input] of entries.entries()) {
      await storage.entries.create(compileEntry(input).input, index);
    }
    gateway = createGateway(config, options.wrapStorage?.(storage) ?? storage, {
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.upgradeRecheckMs === undefined
        ? {}
        : { upgradeRecheckMs: options.upgradeRecheckMs }),
    });
    app = await buildApp(gateway, {
      logger,
      ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
    });
    await app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    // Whatever was opened is closed, or its handles would keep the test's process alive.
    await app?.close();
    await storage.close();
    await example.close();
    await backend.cleanup();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    example,
    storage,
    gateway,
    app,
    logLines: lines,
    browser: () => new TestBrowser(),
    async close() {
      await app.close();
      await storage.close();
      await example.close();
      await backend.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The example server's JSON-style entry, default, mapping no e-mail
 * address: forward-auth's check then answers without X-Auth-Request-Email,
 * which a proxy must not fill in from anywhere else.
 */
export function defaultEntryWithoutEmail(
  presets: ExampleEntries,
): readonly Record<string, unknown>[] {
  return [
    {
      ...presets.jsonStyle,
      isDefault: true,
      userInfoParse: [
        "userId = JSON_PATH($response, 'data.id')",
        "userName = JSON_PATH($response, 'data.name')",
      ].join('\n'),
    },
  ];
}

/** Signs the browser in at the example server itself, so later authorizations are silent. */
export async function signInAtExample(
  browser: TestBrowser,
  exampleUrl: string,
  username = 'alice',
): Promise<void> {
  const response = await browser.submit(`${exampleUrl}/login`, {
    username,
    password: `${username}-password`,
    continue: '/',
  });
  if (response.status !== 200) throw new Error(`example sign-in failed: ${response.status}`);
}

function exampleUser(username: string): ExampleUser {
  const name = `${username.charAt(0).toUpperCase()}${username.slice(1)} Example`;
  return {
    username,
    password: `${username}-password`,
    userId: username,
    name,
    email: `${username}@example.test`,
    department: 'Testing',
  };
}

/** An admin API token stored directly, good on every gateway sharing the database. */
export async function storedApiToken(gw: TestGateway, name: string): Promise<string> {
  const token = `ssg_${randomBytes(32).toString('base64url')}`;
  await gw.storage.apiTokens.create({
    id: name,
    name,
    tokenHash: sha256Base64url(token),
    createdAt: Date.now(),
  });
  return token;
}
