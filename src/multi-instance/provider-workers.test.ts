import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../app/open-storage.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import {
  assertRaceLeftNothing,
  followTo,
  plainAuthorizeUrl,
  redirectUri,
  testClient,
  tokenRequest,
  tokenRequestsAtOnce,
} from '../features/openid-provider/test-support/provider-fixture.js';
import { loadConfig } from '../foundation/config/load-config.js';
import { TestBrowser } from '../test-support/browser.js';
import { freePort } from '../test-support/free-port.js';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import type { TestBackend } from '../test-support/test-backend.js';
import { needsPostgresAndRedis, testBackend } from '../test-support/test-backend.js';
import type { GatewayProcess } from './test-support/gateway-process.js';
import { instanceSettings, startGatewayProcess } from './test-support/gateway-process.js';

/** Token requests at once: enough that each of two workers answers several. */
const racers = 12;

/**
 * The OpenID Provider of a gateway of two workers: a refresh token or a
 * code presented many times at once, the requests spread over both
 * workers, leaves no chain alive (RFC 9700 §4.14.2, RFC 6749 §4.1.2).
 */
function providerWorkersSuite(backendEnv: () => Promise<TestBackend | undefined>): void {
  let example: ExampleServer;
  let gateway: GatewayProcess;
  let backend: TestBackend | undefined;
  let dir: string;
  let url: string;

  before(async () => {
    example = await startExampleServer();
    backend = await backendEnv();
    dir = await mkdtemp(join(tmpdir(), 'ssogate-provider-workers-'));
    const entriesFile = join(dir, 'entries.json');
    const presets = exampleEntries(example.url);
    await writeFile(
      entriesFile,
      JSON.stringify({ entries: [{ ...presets.getStyle, isDefault: true }] }),
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = {
      ...instanceSettings(dir, entriesFile),
      SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'ssogate.db')}`,
      ...(backend?.env ?? {}),
      SSOGATE_PUBLIC_URL: url,
    };
    // The client is registered before the workers start, in the storage they share.
    const storage = await openStorage(loadConfig(env));
    try {
      await storage.providerClients.create(testClient('app', { refreshTokens: true }));
    } finally {
      await storage.close();
    }
    gateway = await startGatewayProcess(port, { ...env, SSOGATE_WORKERS: '2' });
  });

  after(async () => {
    await gateway.stop();
    await example.close();
    await backend?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  /** Alice signed in at the gateway, and the client's code flow back to it: the code. */
  async function newCode(): Promise<string> {
    const browser = new TestBrowser({ freshConnections: true });
    await signInAtExample(browser, example.url, 'alice');
    const { arrived, status, body } = await followTo(browser, plainAuthorizeUrl(url));
    await browser.close();
    const code = arrived?.searchParams.get('code');
    assert.ok(code !== null && code !== undefined, `${String(status)} ${body}`);
    return code;
  }

  test('one refresh token presented at once on both workers: at most one new chain, and it is dead', async () => {
    const first = await tokenRequest(url, 'app', {
      grant_type: 'authorization_code',
      code: await newCode(),
      redirect_uri: redirectUri,
    });
    const tokens = (await first.json()) as Record<string, string>;
    assert.equal(first.status, 200, JSON.stringify(tokens));
    const fields = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' };
    const answers = await tokenRequestsAtOnce(url, 'app', fields, racers);
    await assertRaceLeftNothing(url, 'app', fields, answers, [tokens.access_token ?? '']);
  });

  test('one code presented at once on both workers: at most one answer, and its tokens are dead', async () => {
    const fields = {
      grant_type: 'authorization_code',
      code: await newCode(),
      redirect_uri: redirectUri,
    };
    const answers = await tokenRequestsAtOnce(url, 'app', fields, racers);
    await assertRaceLeftNothing(url, 'app', fields, answers, []);
  });
}

describe('the OpenID Provider on two workers sharing one SQLite file', () => {
  providerWorkersSuite(() => Promise.resolve(undefined));
});

describe(
  'the OpenID Provider on two workers sharing PostgreSQL and Redis',
  { skip: needsPostgresAndRedis },
  () => {
    providerWorkersSuite(() => testBackend());
  },
);
