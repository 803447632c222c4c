import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserResponse } from '../../test-support/browser.js';
import { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway, TestGatewayOptions } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { bootstrapAdmin } from '../local-accounts/bootstrap-admin.js';
import { factorHref } from '../second-factor/factor-paths.js';
import { base32Decode, totpCode } from '../second-factor/totp.js';

/**
 * SSOGATE_ADMIN_SECOND_FACTOR (docs/security.md#second-factor): off by
 * default; required, the console's pages send an administrator's session
 * without a (recent enough) second factor to the factor page, which enrols
 * on first need and comes back, and the admin API answers such a session
 * `401 second_factor_required`. An API token is no session and is not asked.
 * Real gateways on loopback; the codes are computed here for the gateways'
 * clock, which the tests move instead of waiting.
 */

const minutes = 60_000;
const password = 'console-admin-password';
const consolePage = '/_sso/admin/users';
/** What the console build of these tests holds, to tell its page from any other. */
const consoleMarker = '<div id="root" data-test="console-factor"></div>';

/** A console build with its index.html only, served by the console route. */
async function consoleBuild(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-console-factor-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8" /></head><body>${consoleMarker}</body></html>`,
  );
  return dir;
}

/** A hidden field's value in a page. */
function field(body: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];
  assert.ok(value !== undefined, `the page has a ${name} field`);
  return value;
}

/** The administrator signs in with the local form, asking for a console page first. */
async function signInAdmin(browser: TestBrowser, origin: string): Promise<BrowserResponse> {
  const chooser = await browser.open(
    `${origin}/_sso/login?return_to=${encodeURIComponent(consolePage)}`,
  );
  return browser.submit(`${origin}/_sso/login/local`, {
    username: 'admin',
    password,
    csrf: field(chooser.body, 'csrf'),
    return_to: consolePage,
  });
}

/** The admin API with the browser's cookies: the status and the error's code, if any. */
async function adminApi(browser: TestBrowser, origin: string): Promise<string> {
  const answer = await browser.open(`${origin}/_sso/api/users`, { accept: 'application/json' });
  const code = (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code;
  return `${answer.status} ${code ?? ''}`.trim();
}

/** Enrols the authenticator the enrolment page shows, with a code for `now`; its key. */
async function enrol(
  browser: TestBrowser,
  origin: string,
  asked: BrowserResponse,
  now: number,
): Promise<Uint8Array> {
  const shown = /id="factor-secret">([A-Z2-7]+)</.exec(asked.body)?.[1] ?? '';
  const secret = base32Decode(shown);
  assert.ok(secret !== undefined, 'the enrolment page shows the key');
  const saved = await browser.submit(`${origin}/_sso/factor/enrol`, {
    csrf: field(asked.body, 'csrf'),
    return_to: field(asked.body, 'return_to'),
    enrolment: field(asked.body, 'enrolment'),
    name: 'Phone',
    code: totpCode(secret, now),
  });
  assert.equal(saved.status, 200, saved.body);
  assert.match(saved.body, /id="recovery-codes"/);
  // The recovery codes' page continues to the console page first asked for.
  assert.match(saved.body, new RegExp(`<a href="${consolePage}">`));
  return secret;
}

/** A gateway with a console build and its local administrator. */
async function gatewayWithAdmin(options: TestGatewayOptions): Promise<TestGateway> {
  const consoleDir = await consoleBuild();
  try {
    const gw = await startTestGateway({ ...options, consoleDir });
    await bootstrapAdmin(gw.storage.users, password, Date.now());
    return {
      ...gw,
      async close() {
        await gw.close();
        await rm(consoleDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(consoleDir, { recursive: true, force: true });
    throw error;
  }
}

describe('the console without SSOGATE_ADMIN_SECOND_FACTOR', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await gatewayWithAdmin({});
  });
  after(async () => {
    await gw.close();
  });

  test('off by default: an administrator without a second factor uses the console and the API', async () => {
    assert.equal(gw.gateway.config.adminSecondFactor, undefined);
    const browser = gw.browser();
    const landed = await signInAdmin(browser, gw.url);
    assert.equal(landed.status, 200);
    assert.equal(new URL(landed.url).pathname, consolePage);
    assert.ok(landed.body.includes(consoleMarker));
    assert.equal(await adminApi(browser, gw.url), '200');
  });
});

describe('SSOGATE_ADMIN_SECOND_FACTOR=required, within 30 minutes', () => {
  let gw: TestGateway;
  let now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const browser = new TestBrowser();
  let secret: Uint8Array = new Uint8Array();
  before(async () => {
    gw = await gatewayWithAdmin({
      clock: () => now,
      env: {
        SSOGATE_ADMIN_SECOND_FACTOR: 'required',
        SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '30',
      },
    });
  });
  after(async () => {
    await browser.close();
    await gw.close();
  });

  test('a console page goes to the factor page, which enrols and comes back; the API is 401 until then', async () => {
    const asked = await signInAdmin(browser, gw.url);
    // The console's own redirect: to the second-factor slice's page, back to the page asked for.
    const fromConsole = asked.hops.find(({ url }) => new URL(url).pathname === consolePage);
    assert.equal(fromConsole?.status, 302);
    assert.equal(fromConsole.location, factorHref(consolePage));
    assert.equal(asked.status, 200);
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    assert.equal(field(asked.body, 'return_to'), consolePage);
    assert.match(asked.body, /id="factor-secret"/, 'the first need enrols an authenticator');

    // The API, a console asset and a changing call with the form token: all refused, coded.
    assert.equal(await adminApi(browser, gw.url), '401 second_factor_required');
    const asset = await browser.open(`${gw.url}/_sso/admin/assets/index.js`, { accept: '*/*' });
    assert.equal(asset.status, 401);
    assert.match(asset.body, /"second_factor_required"/);
    const changing = await browser.exchange(
      'POST',
      `${gw.url}/_sso/api/users/1/end-sessions`,
      undefined,
      'application/json',
      { 'x-csrf-token': field(asked.body, 'csrf') },
    );
    assert.equal(changing.status, 401);
    assert.match(await changing.text(), /"second_factor_required"/);

    secret = await enrol(browser, gw.url, asked, now);
    const console = await browser.open(`${gw.url}${consolePage}`);
    assert.equal(console.status, 200);
    assert.equal(new URL(console.url).pathname, consolePage);
    assert.ok(console.body.includes(consoleMarker));
    assert.equal(await adminApi(browser, gw.url), '200');
  });

  test('past the 30 minutes, a code is asked again, and the console comes back after it', async () => {
    now += 29 * minutes;
    assert.equal(await adminApi(browser, gw.url), '200');
    now += 2 * minutes;
    assert.equal(await adminApi(browser, gw.url), '401 second_factor_required');
    const asked = await browser.open(`${gw.url}${consolePage}?q=a`);
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    assert.equal(field(asked.body, 'return_to'), `${consolePage}?q=a`);
    assert.match(asked.body, /name="code"/);
    const given = await browser.submit(`${gw.url}/_sso/factor`, {
      csrf: field(asked.body, 'csrf'),
      return_to: field(asked.body, 'return_to'),
      code: totpCode(secret, now),
    });
    assert.equal(given.status, 200);
    assert.equal(given.url, `${gw.url}${consolePage}?q=a`);
    assert.ok(given.body.includes(consoleMarker));
    assert.equal(await adminApi(browser, gw.url), '200');
  });

  test('an API token is no session: it is not asked for a factor', async () => {
    const token = await storedApiToken(gw, 'console-factor');
    const answer = await fetch(`${gw.url}/_sso/api/users`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    assert.equal(answer.status, 200);
    // A fresh sign-in's session, from another browser, is asked as the first was.
    const other = new TestBrowser();
    try {
      const landed = await signInAdmin(other, gw.url);
      assert.equal(new URL(landed.url).pathname, '/_sso/factor');
      assert.match(landed.body, /name="code"/, 'the administrator holds a factor: a code is asked');
      assert.equal(await adminApi(other, gw.url), '401 second_factor_required');
    } finally {
      await other.close();
    }
  });
});

/**
 * Several hosts under SSOGATE_COOKIE_DOMAIN: the console and the API are the
 * auth host's, read with its own console cookie (sessions/console-session.ts),
 * and the factor given on the auth host reaches that session; the console
 * opened on another host is sent to the auth host, where it is asked.
 */
describe('SSOGATE_ADMIN_SECOND_FACTOR=required on many hosts', () => {
  let gw: TestGateway;
  let port = 0;
  const now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const at = (host: string, path = '') => `http://${host}.corp.test:${String(port)}${path}`;
  const browser = new TestBrowser({ connectTo: '127.0.0.1' });
  before(async () => {
    gw = await gatewayWithAdmin({
      clock: () => now,
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.corp.test:${String(listening)}`,
          SSOGATE_COOKIE_DOMAIN: '.corp.test',
          SSOGATE_FORWARD_AUTH_HOSTS: `grafana.corp.test:${String(listening)}`,
          SSOGATE_ADMIN_SECOND_FACTOR: 'required',
        };
      },
    });
  });
  after(async () => {
    await browser.close();
    await gw.close();
  });

  test("the console cookie's session is asked on the auth host, from any host, and passes after the code", async () => {
    const asked = await signInAdmin(browser, at('sso'));
    assert.equal(new URL(asked.url).host, `sso.corp.test:${String(port)}`);
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    assert.ok(browser.cookies(at('sso')).has('ssogate_console'));
    assert.equal(await adminApi(browser, at('sso')), '401 second_factor_required');

    // The console opened on another host is sent to the auth host's, which asks.
    const elsewhere = await browser.open(at('grafana', consolePage));
    assert.equal(new URL(elsewhere.url).host, `sso.corp.test:${String(port)}`);
    assert.equal(new URL(elsewhere.url).pathname, '/_sso/factor');

    await enrol(browser, at('sso'), asked, now);
    assert.equal(await adminApi(browser, at('sso')), '200');
    const console = await browser.open(at('grafana', consolePage));
    assert.equal(console.url, at('sso', consolePage));
    assert.equal(console.status, 200);
    assert.ok(console.body.includes(consoleMarker));
  });
});

// The test build's src/main.js, two folders up from this file.
const mainScript = fileURLToPath(new URL('../../main.js', import.meta.url));

/** The server started with `env` alone in an empty folder: its exit code, what it wrote and left. */
async function start(env: Readonly<Record<string, string>>) {
  const folder = await mkdtemp(join(tmpdir(), 'ssogate-main-'));
  try {
    const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [mainScript],
        { cwd: folder, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
        (_error, _out, stderr) => {
          resolve({ code: child.exitCode, stderr });
        },
      );
    });
    return { ...outcome, files: await readdir(folder) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('a bad SSOGATE_ADMIN_SECOND_FACTOR setting', () => {
  test('stops the start, naming the variable and what it takes', async () => {
    const outcome = await start({
      SSOGATE_ADMIN_SECOND_FACTOR: 'yes',
      SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '0',
    });
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /^ssogate cannot start\. The configuration is invalid:/);
    assert.match(
      outcome.stderr,
      /\n {2}- SSOGATE_ADMIN_SECOND_FACTOR: .*; expected off, or required /,
    );
    assert.match(
      outcome.stderr,
      /\n {2}- SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: .*; expected minutes .*, 1-43200/,
    );
    assert.deepEqual(outcome.files, [], 'nothing was started');
  });

  test('a maximum age without required stops the start too, rather than being ignored', async () => {
    const outcome = await start({ SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '15' });
    assert.equal(outcome.code, 1);
    assert.match(
      outcome.stderr,
      /- SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: 15 needs SSOGATE_ADMIN_SECOND_FACTOR=required/,
    );
  });
});
