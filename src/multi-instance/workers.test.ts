import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import { TestBrowser } from '../test-support/browser.js';
import { freePort } from '../test-support/free-port.js';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import { signOut } from '../test-support/sign-out.js';
import type { TestBackend } from '../test-support/test-backend.js';
import { needsPostgresAndRedis, testBackend } from '../test-support/test-backend.js';
import { waitUntil } from '../test-support/wait-until.js';
import type { GatewayProcess } from './test-support/gateway-process.js';
import { instanceSettings, startGatewayProcess } from './test-support/gateway-process.js';
import { isRequestTo, logLine, logLines } from './test-support/worker-logs.js';

/** Fresh connections per check: enough that each of two workers takes several. */
const checks = 12;

/** A GET on a connection of its own (no keep-alive), so it may land on any worker. */
function freshGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent: false, headers }, (response) => {
      response.resume();
      response.once('end', () => {
        resolve(response.statusCode ?? 0);
      });
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** The pids of the workers that logged a request to `path` from line `after` on. */
function pidsServing(gateway: GatewayProcess, path: string, after: number): Set<unknown> {
  return new Set(
    logLines(gateway)
      .slice(after)
      .filter((line) => (line.req as { url?: string } | undefined)?.url?.startsWith(path))
      .map((line) => line.pid),
  );
}

/** The worker pids of the start line: "with 2 workers (pids 1, 2)". */
function workerPids(gateway: GatewayProcess): number[] {
  const pids = /with \d+ workers \(pids ([\d, ]+)\)/.exec(gateway.output.join(''))?.[1];
  assert.ok(pids !== undefined, gateway.output.join(''));
  return pids.split(', ').map(Number);
}

function cookieHeader(browser: TestBrowser, origin: string): string {
  return [...browser.cookies(origin)].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * A gateway of two workers sharing one listener behaves as one process: a
 * sign-out on one worker is refused by every worker at its next check,
 * although both remembered the session; a sign-in started on one finishes
 * on the other; a worker killed is replaced while the other answers; the
 * metrics' listener adds both workers' counts up.
 */
function twoWorkersSuite(backendEnv: () => Promise<TestBackend | undefined>): void {
  let example: ExampleServer;
  let gateway: GatewayProcess;
  let backend: TestBackend | undefined;
  let dir: string;
  let url: string;
  let metricsUrl: string;

  before(async () => {
    example = await startExampleServer();
    backend = await backendEnv();
    dir = await mkdtemp(join(tmpdir(), 'ssogate-workers-'));
    const entriesFile = join(dir, 'entries.json');
    const presets = exampleEntries(example.url);
    await writeFile(
      entriesFile,
      JSON.stringify({ entries: [{ ...presets.getStyle, isDefault: true }] }),
    );
    const [port, metricsPort] = [await freePort(), await freePort()];
    url = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    gateway = await startGatewayProcess(port, {
      ...instanceSettings(dir, entriesFile),
      ...(backend?.env ?? {}),
      SSOGATE_PUBLIC_URL: url,
      SSOGATE_WORKERS: '2',
      SSOGATE_METRICS_ADDRESS: `127.0.0.1:${metricsPort}`,
      // Request lines name the worker (pid) that answered; every request
      // writes one, a sign-in's start too (routine ones are otherwise sampled).
      SSOGATE_LOG_LEVEL: 'info',
      SSOGATE_REQUEST_LOG: 'all',
    });
  });

  after(async () => {
    await gateway.stop();
    await example.close();
    await backend?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const authChecks = (cookie: string) =>
    Promise.all(Array.from({ length: checks }, () => freshGet(`${url}/_sso/auth`, { cookie })));

  async function signedInBrowser(): Promise<TestBrowser> {
    const browser = new TestBrowser({ freshConnections: true });
    await signInAtExample(browser, example.url, 'alice');
    const landed = await browser.open(`${url}/_sso/login/example-get?return_to=/landing`);
    assert.equal(landed.url, `${url}/landing`, landed.body);
    return browser;
  }

  test('the start lines are printed once, naming both workers', () => {
    const text = gateway.output.join('');
    assert.equal(text.split('ssogate listens on').length, 2, text);
    assert.equal(text.split('Admin console:').length, 2, text);
    assert.equal(workerPids(gateway).length, 2);
  });

  test('a sign-out on one worker is refused by every worker at the next check', async () => {
    const browser = await signedInBrowser();
    const cookie = cookieHeader(browser, url);
    // Twice each on both workers at least: the second answer comes from memory.
    assert.deepEqual(await authChecks(cookie), Array<number>(checks).fill(204));
    assert.deepEqual(await authChecks(cookie), Array<number>(checks).fill(204));
    const from = logLines(gateway).length;
    assert.match((await signOut(browser, url)).url, /\/_sso\/signed-out$/);
    assert.deepEqual(await authChecks(cookie), Array<number>(checks).fill(401));
    // Every refusal is logged: both workers refused it.
    await logLine(
      gateway,
      (line) => (line.req as { url?: string } | undefined)?.url === '/_sso/auth',
      from,
    );
    // Each worker writes its own lines, the other's perhaps a moment later.
    await waitUntil(() => pidsServing(gateway, '/_sso/auth', from).size === 2, {
      message: () => `lines of /_sso/auth from both workers:\n${gateway.output.join('')}`,
      intervalMs: 50,
    });
    await browser.close();
  });

  test('sign-ins started on one worker finish on the other', async () => {
    let crossed = 0;
    for (let round = 0; round < 4; round += 1) {
      const browser = new TestBrowser({ freshConnections: true });
      await signInAtExample(browser, example.url, 'alice');
      const from = logLines(gateway).length;
      const landed = await browser.open(`${url}/_sso/login/example-get?return_to=/r${round}`);
      assert.equal(landed.url, `${url}/r${round}`, landed.body);
      const started = await logLine(gateway, (line) => isRequestTo(line, '/_sso/login/'), from);
      const finished = await logLine(gateway, (line) => isRequestTo(line, '/_sso/callback/'), from);
      if (started.pid !== finished.pid) crossed += 1;
      await browser.close();
    }
    assert.ok(crossed > 0, 'no sign-in crossed from one worker to the other');
  });

  test('the metrics listener adds up the counts of both workers', async () => {
    const count = async () => {
      const text = await (await fetch(metricsUrl)).text();
      const line =
        /^ssogate_forward_auth_requests_total\{decision="unauthenticated"\} (\d+)$/m.exec(text);
      return Number(line?.[1]);
    };
    const before = await count();
    assert.deepEqual(await authChecks(''), Array<number>(checks).fill(401));
    assert.equal((await count()) - before, checks);
  });

  test('a worker killed is replaced, and the gateway keeps answering', async () => {
    const browser = await signedInBrowser();
    const cookie = cookieHeader(browser, url);
    const [killed, kept] = workerPids(gateway);
    assert.ok(killed !== undefined && kept !== undefined);
    const from = logLines(gateway).length;
    process.kill(killed, 'SIGKILL');
    const restarted = await logLine(gateway, (line) => line.previousPid === killed, from);
    const replacement = restarted.workerPid;
    // While the replacement starts, a scrape reads the worker that listens.
    const scrape = await fetch(metricsUrl);
    assert.equal(scrape.status, 200, await scrape.text());
    await logLine(
      gateway,
      (line) => line.pid === replacement && String(line.msg).startsWith('Server listening'),
      from,
    );
    const checked = logLines(gateway).length;
    // The session signed in before lives on in storage: every worker accepts it.
    assert.deepEqual(await authChecks(cookie), Array<number>(checks).fill(204));
    assert.deepEqual(await authChecks(''), Array<number>(checks).fill(401));
    await waitUntil(() => pidsServing(gateway, '/_sso/auth', checked).size >= 2, {
      message: () => `lines of /_sso/auth from two workers:\n${gateway.output.join('')}`,
      intervalMs: 50,
    });
    assert.deepEqual(
      [...pidsServing(gateway, '/_sso/auth', checked)].sort(),
      [kept, replacement].sort(),
    );
    await browser.close();
  });

  test('SIGTERM stops every worker and the primary exits 0', async () => {
    const pids = workerPids(gateway);
    const restarted = logLines(gateway)
      .map((line) => line.workerPid)
      .filter((pid): pid is number => typeof pid === 'number');
    assert.equal(await gateway.signal('SIGTERM'), 0, gateway.output.join(''));
    for (const pid of [...pids, ...restarted]) assert.equal(isRunning(pid), false, `pid ${pid}`);
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('two workers on one SQLite file', () => {
  twoWorkersSuite(() => Promise.resolve(undefined));
});

describe('two workers on PostgreSQL and Redis', { skip: needsPostgresAndRedis }, () => {
  twoWorkersSuite(() => testBackend());
});

describe('workers that keep failing at start', () => {
  test('the primary gives up and exits 1', async () => {
    // The port is taken: each worker's listen fails, and so does each restart.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-workers-failing-'));
    try {
      await assert.rejects(
        startGatewayProcess(port, {
          SSOGATE_DATA_DIR: dir,
          SSOGATE_ADMIN_PASSWORD: 'workers-failing-admin',
          SSOGATE_WORKERS: '2',
          SSOGATE_LOG_LEVEL: 'warn',
        }),
        (error: Error) => {
          assert.match(error.message, /exited with 1/);
          assert.match(error.message, /workers keep failing at start/);
          assert.match(error.message, /another starts in 250 ms/);
          return true;
        },
      );
    } finally {
      taken.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
