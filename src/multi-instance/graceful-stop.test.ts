import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../app/open-storage.js';
import { loadConfig } from '../foundation/config/load-config.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import type { BrowserResponse } from '../test-support/browser.js';
import { TestBrowser } from '../test-support/browser.js';
import { freePort } from '../test-support/free-port.js';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import type { TestBackend } from '../test-support/test-backend.js';
import { testBackend } from '../test-support/test-backend.js';
import { waitUntil } from '../test-support/wait-until.js';
import type { GatewayProcess } from './test-support/gateway-process.js';
import { startGatewayProcess } from './test-support/gateway-process.js';

/** Whether a new TCP connection to the port is refused. */
function refuses(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ECONNREFUSED');
    });
  });
}

/** Resolves once a new TCP connection to the port is refused (polling, at most 30 s). */
async function refusedAt(port: number): Promise<void> {
  await waitUntil(() => refuses(port), {
    message: `port ${port} to refuse connections`,
    timeoutMs: 30_000,
    intervalMs: 50,
  });
}

describe('a gateway process stopped with SIGTERM', () => {
  let example: ExampleServer;
  let backend: TestBackend;
  let dir: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;

  before(async () => {
    example = await startExampleServer({ host: '127.0.0.1' });
    dir = await mkdtemp(join(tmpdir(), 'ssogate-stop-'));
    // A file, so the test can look at what the stopped process stored.
    backend = await testBackend({ sqliteFile: join(dir, 'ssogate.db') });
    const entriesFile = join(dir, 'entries.json');
    const presets = exampleEntries(example.url);
    await writeFile(entriesFile, JSON.stringify({ entries: [presets.getStyle] }));
    env = {
      ...backend.env,
      SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
      SSOGATE_ADMIN_PASSWORD: 'graceful-stop-admin',
      SSOGATE_ENTRIES_FILE: entriesFile,
      SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
      SSOGATE_DATA_DIR: dir,
      SSOGATE_SHUTDOWN_TIMEOUT_SECONDS: '60',
      SSOGATE_LOG_LEVEL: 'warn',
    };
  });

  after(async () => {
    await gateway?.stop();
    await example.close();
    await backend.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A gateway whose sign-in is waiting for the token answer, which comes
   * after `tokenDelayMs`: the callback's response, when it comes.
   */
  async function signInInFlight(
    url: string,
    tokenDelayMs: number,
  ): Promise<{ callback: Promise<BrowserResponse> }> {
    const browser = new TestBrowser();
    await signInAtExample(browser, example.url);
    const toCallback = await browser.open(`${url}/_sso/login/example-get?return_to=/landing`, {
      maxHops: 1,
    });
    const callbackUrl = toCallback.hops[1]?.location ?? '';
    assert.match(callbackUrl, /\/_sso\/callback\/example-get\?/);
    example.failNext('token', { delayMs: tokenDelayMs });
    example.requests.length = 0;
    const callback = browser.open(callbackUrl, { maxHops: 0 });
    await waitUntil(() => example.requests.some((request) => request.path === '/get/token'), {
      message: 'the gateway to call the token endpoint',
      timeoutMs: 30_000,
    });
    return { callback };
  }

  test('finishes the sign-in in flight, refuses new connections and exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    gateway = await startGatewayProcess(port, { ...env, SSOGATE_PUBLIC_URL: url });
    // The token step answers only after a while: the sign-in is in flight when the signal comes.
    const { callback } = await signInInFlight(url, 3000);
    const exitCode = gateway.signal('SIGTERM');

    await refusedAt(port);
    const finished = await callback;
    assert.equal(finished.status, 302);
    assert.equal(finished.headers.get('location'), '/landing');
    assert.equal(await exitCode, 0);

    // The session it made was stored before the storage closed.
    const storage = await openStorage(loadConfig({ ...env, SSOGATE_PUBLIC_URL: url }));
    try {
      const events = await storage.audit.list({ kind: 'sign_in', limit: 10 });
      assert.deepEqual(
        events.map((event) => [event.outcome, event.userId]),
        [['success', 'alice']],
      );
    } finally {
      await storage.close();
    }
  });

  test('cuts off a sign-in still waiting at the deadline and exits 1 by then', async () => {
    await gateway?.stop();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    gateway = await startGatewayProcess(port, {
      ...env,
      SSOGATE_PUBLIC_URL: url,
      SSOGATE_SHUTDOWN_TIMEOUT_SECONDS: '1',
    });
    // The token answer would come long after the one-second deadline.
    const { callback } = await signInInFlight(url, 30_000);
    const answer = callback.then(
      (response) => `answered ${response.status}`,
      () => 'cut',
    );
    const signalledAt = Date.now();
    const exitCode = await gateway.signal('SIGTERM');
    const stoppedMs = Date.now() - signalledAt;

    assert.equal(exitCode, 1);
    // The deadline, plus the closing of the storage and a busy machine's
    // slack; well before the token call's own 10-second time-out, which the
    // stop does not wait for.
    assert.ok(stoppedMs >= 1000 && stoppedMs < 7_000, `exited ${stoppedMs} ms after SIGTERM`);
    // The connection was destroyed, not answered.
    assert.equal(await answer, 'cut');
    assert.match(gateway.output.join(''), /cut off/);
  });
});
