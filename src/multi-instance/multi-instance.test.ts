import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../app/open-storage.js';
import { loadConfig } from '../foundation/config/load-config.js';
import { sha256Base64url } from '../foundation/crypto/hash.js';
import type { ExampleServer } from '../example-server/index.js';
import { exampleEntries, startExampleServer } from '../example-server/index.js';
import type { Storage } from '../foundation/storage/types.js';
import type { BrowserResponse } from '../test-support/browser.js';
import { TestBrowser } from '../test-support/browser.js';
import { freePort } from '../test-support/free-port.js';
import { signInAtExample } from '../test-support/gateway-fixture.js';
import { signOut } from '../test-support/sign-out.js';
import { needsPostgresAndRedis, testBackend } from '../test-support/test-backend.js';
import { waitUntil } from '../test-support/wait-until.js';
import type { GatewayProcess } from './test-support/gateway-process.js';
import { instanceSettings, startGatewayProcess } from './test-support/gateway-process.js';

const skip = needsPostgresAndRedis;

/**
 * Three gateway processes behind one public URL, sharing PostgreSQL and
 * Redis, behave as one: a sign-in started on one finishes on another, a
 * session works on all, a sign-out on one holds on all at once.
 */
describe('several instances as one', { skip }, () => {
  const users = Array.from({ length: 10 }, (_, index) => `u${index}`);
  let example: ExampleServer;
  let instances: GatewayProcess[] = [];
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let dir: string;
  let jsonStyle: Record<string, unknown>;

  before(async () => {
    example = await startExampleServer({
      users: ['alice', ...users].map((username) => ({
        username,
        password: `${username}-password`,
        userId: username,
        name: `${username} Example`,
        email: `${username}@example.test`,
        department: 'Testing',
      })),
    });
    const backend = await testBackend();
    cleanup = () => backend.cleanup();
    dir = await mkdtemp(join(tmpdir(), 'ssogate-multi-'));
    const presets = exampleEntries(example.url);
    jsonStyle = presets.jsonStyle;
    const entriesFile = join(dir, 'entries.json');
    await writeFile(
      entriesFile,
      JSON.stringify({ entries: [{ ...presets.getStyle, isDefault: true }, jsonStyle] }),
    );
    const ports = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...backend.env,
      SSOGATE_PUBLIC_URL: `http://127.0.0.1:${ports[0] ?? 0}`,
      ...instanceSettings(dir, entriesFile),
    };
    // Started together: the migration runs once, under the advisory lock.
    const started = await Promise.allSettled(ports.map((port) => startGatewayProcess(port, env)));
    // The ones that did start are stopped by after(), even if another failed.
    instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    storage = await openStorage(loadConfig(env));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await storage.close();
    await example.close();
    await cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const [a, b, c] = [0, 1, 2];
  const at = (index: number) => instances[index]?.url ?? '';

  /** Starts a sign-in on one instance and delivers the callback to another, as a load balancer might. */
  async function signInAcross(
    browser: TestBrowser,
    start: string,
    finish: string,
  ): Promise<BrowserResponse> {
    const toCallback = await browser.open(`${start}/_sso/login/example-get?return_to=/landing`, {
      maxHops: 1,
    });
    const callback = new URL(toCallback.hops[1]?.location ?? '');
    assert.match(callback.pathname, /^\/_sso\/callback\//);
    copyCookies(browser, start, finish);
    return browser.open(`${finish}${callback.pathname}${callback.search}`);
  }

  function copyCookies(browser: TestBrowser, from: string, to: string): void {
    for (const [name, value] of browser.cookies(from)) browser.setCookie(to, name, value);
  }

  /** An admin API token stored in the shared database, good on every instance. */
  async function newApiToken(name: string): Promise<string> {
    const token = `ssg_${randomBytes(32).toString('base64url')}`;
    await storage.apiTokens.create({
      id: name,
      name,
      tokenHash: sha256Base64url(token),
      createdAt: Date.now(),
    });
    return token;
  }

  const me = async (browser: TestBrowser, instance: string) =>
    (await browser.open(`${instance}/_sso/me`, { accept: 'application/json' })).status;

  test('a sign-in started on A completes on B, works on C, and a sign-out on C is refused on A at once', async () => {
    const browser = new TestBrowser();
    await signInAtExample(browser, example.url, 'alice');
    const landed = await signInAcross(browser, at(a), at(b));
    assert.equal(landed.status, 200, landed.body);
    assert.equal(landed.url, `${at(b)}/landing`);
    copyCookies(browser, at(b), at(c));
    copyCookies(browser, at(b), at(a));
    assert.equal(await me(browser, at(c)), 200);
    assert.equal(await me(browser, at(a)), 200);
    // Forward-auth on A twice: the second answer is a remembered one.
    const cookie = [...browser.cookies(at(a))]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    const auth = async (index: number) =>
      (await fetch(`${at(index)}/_sso/auth`, { headers: { cookie } })).status;
    assert.deepEqual([await auth(a), await auth(a)], [204, 204]);
    assert.match((await signOut(browser, at(c))).url, /\/_sso\/signed-out$/);
    assert.equal(await auth(a), 401);
    assert.equal(await me(browser, at(a)), 401);
    assert.equal(await me(browser, at(b)), 401);
  });

  test('a replayed callback has one winner across instances', async () => {
    const browser = new TestBrowser();
    await signInAtExample(browser, example.url, 'alice');
    const toCallback = await browser.open(`${at(a)}/_sso/login/example-get?return_to=/r`, {
      maxHops: 1,
    });
    const callback = new URL(toCallback.hops[1]?.location ?? '');
    copyCookies(browser, at(a), at(b));
    copyCookies(browser, at(a), at(c));
    const results = await Promise.all(
      [a, b, c, a, b, c].map((index) =>
        browser.open(`${at(index)}${callback.pathname}${callback.search}`),
      ),
    );
    assert.equal(results.filter(({ status }) => status === 200).length, 1);
    assert.ok(results.every(({ status }) => status === 200 || status === 400));
  });

  test('fifty concurrent sign-ins of ten new users, spread across instances, leave ten rows', async () => {
    const browsers = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const browser = new TestBrowser();
        await signInAtExample(browser, example.url, users[index % users.length] ?? 'u0');
        return browser;
      }),
    );
    const results = await Promise.all(
      browsers.map((browser, index) => signInAcross(browser, at(index % 3), at((index + 1) % 3))),
    );
    assert.deepEqual(
      results.map(({ status }) => status),
      results.map(() => 200),
    );
    const { users: rows } = await storage.users.list({ search: 'u', limit: 100, offset: 0 });
    assert.deepEqual(
      rows
        .map(({ userId }) => userId)
        .filter((id) => /^u\d$/.test(id))
        .sort(),
      users,
    );
  });

  test('an entry edited through one instance is used by all at the next sign-in', async () => {
    const token = await newApiToken('multi');
    const chooser = async (index: number) =>
      (await new TestBrowser().open(`${at(index)}/_sso/login`)).body;
    assert.match(await chooser(b), /Example \(POST JSON style\)/);
    // Without appsecret: the stored secret is kept (it is write-only).
    const withoutSecret = Object.fromEntries(
      Object.entries(jsonStyle).filter(([key]) => key !== 'appsecret'),
    );
    const response = await fetch(`${at(a)}/_sso/api/entries/example-json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...withoutSecret, name: 'Renamed JSON entry' }),
    });
    assert.equal(response.status, 200, await response.text());
    for (const index of [b, c]) {
      const body = await waitUntil(
        async () => {
          const page = await chooser(index);
          return page.includes('Renamed JSON entry') && page;
        },
        { message: `the renamed entry on instance ${index}'s chooser`, intervalMs: 100 },
      );
      assert.match(body, /Renamed JSON entry/);
    }
  });
  test("an entry disabled through one instance ends its users' sessions on all at once", async () => {
    const token = await newApiToken('multi-disable');
    const browser = new TestBrowser();
    await signInAtExample(browser, example.url, 'alice');
    assert.equal((await signInAcross(browser, at(b), at(c))).status, 200);
    for (const index of [a, b]) copyCookies(browser, at(c), at(index));
    for (const index of [a, b, c]) assert.equal(await me(browser, at(index)), 200);
    const disabled = await fetch(`${at(a)}/_sso/api/entries/example-get/disable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(disabled.status, 200, await disabled.text());
    for (const index of [a, b, c]) assert.equal(await me(browser, at(index)), 401);
  });
});
