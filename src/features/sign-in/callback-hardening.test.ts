import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestBrowser } from '../../test-support/browser.js';
import { everyStoredText } from '../../test-support/database-text.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { testBackendName } from '../../test-support/test-backend.js';
import { waitUntil } from '../../test-support/wait-until.js';

const issuedPrefix = 'ISSUED_7c1f9a_';
const appSecret = 'APP_SECRET_b3e81d42';

/**
 * What a hostile provider or a crafted callback URL may send, against a real
 * gateway and example server on loopback and the suite's real database:
 * tokens in the callback's query, an e-mail address of another user,
 * placeholder text as a name, forged log lines, session ids outside the
 * cookie. Every code and token the example server issues starts with
 * `issuedPrefix`, so the database can be searched for any of them.
 */
describe('callback hardening', () => {
  let gw: TestGateway;
  let dir: string;
  // A token endpoint that accepts connections and never answers, for the entry `hung`.
  const hungSockets: Socket[] = [];
  const hung = createServer((socket) => {
    hungSockets.push(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-hardening-'));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const hungToken = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/token?code=\${code}`;
    gw = await startTestGateway({
      client: { appid: 'hardening-app', secret: appSecret },
      issuedPrefix,
      entries: ({ getStyle, standard }) => [
        { ...getStyle, isDefault: true },
        standard,
        // Authorized by the example server; its token call goes where nothing answers.
        { ...getStyle, id: 'hung', name: 'Hung', tokenUrl: hungToken, timeoutMs: 60_000 },
      ],
      usernames: ['alice', 'carol', 'dave', 'erin', 'frank', 'gina'],
      // SQLite in a file, so that a second connection can read every table.
      env: testBackendName().startsWith('sqlite')
        ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}` }
        : {},
    });
  });
  after(async () => {
    for (const socket of hungSockets) socket.destroy();
    hung.close();
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function signedIn(username: string, entry = 'example-get'): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    const page = await browser.open(`${gw.url}/_sso/login/${entry}?return_to=/home`);
    assert.equal(page.status, 200, page.body);
    return browser;
  }

  async function me(browser: TestBrowser): Promise<Record<string, unknown>> {
    const answer = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(answer.status, 200, answer.body);
    return JSON.parse(answer.body) as Record<string, unknown>;
  }

  async function storedTexts(): Promise<string> {
    const texts = await everyStoredText(gw.gateway.config.database);
    return texts.map(({ table, column, value }) => `${table}.${column}=${value}`).join('\n');
  }

  test('an access_token in the callback query is never used, logged or stored', async () => {
    const canary = 'CANARY_QUERY_TOKEN_9f0e2d';
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'alice');
    // Stop at the callback the example server sends back, and add the canary to it.
    const started = await browser.open(`${gw.url}/_sso/login/example-standard?return_to=/q`, {
      maxHops: 1,
    });
    const callback = new URL(started.hops[1]?.location ?? '', gw.url);
    assert.match(callback.pathname, /^\/_sso\/callback\/example-standard$/);
    callback.searchParams.set('access_token', canary);
    callback.searchParams.set('id_token', canary);
    gw.example.requests.length = 0;
    const page = await browser.open(callback.toString());
    assert.equal(page.status, 200, page.body);
    assert.equal((await me(browser)).userId, 'alice');
    // The user-info call carried the token from the token answer, not the canary.
    const userInfo = gw.example.requests.find(({ path }) => path.endsWith('/userinfo'));
    assert.match(String(userInfo?.headers.authorization), new RegExp(`^Bearer ${issuedPrefix}`));
    assert.equal(JSON.stringify(gw.example.requests).includes(canary), false);
    assert.equal(gw.logLines.join('').includes(canary), false, 'the log holds the canary');
    assert.equal((await storedTexts()).includes(canary), false, 'the database holds the canary');
    assert.equal(page.body.includes(canary), false);
  });

  test('an e-mail address of another user neither links nor signs in as that user', async () => {
    const erin = await signedIn('erin');
    const erinBefore = await me(erin);
    // Frank's provider account claims Erin's address.
    gw.example.updateUser('frank', { email: 'erin@example.test' });
    const frank = await signedIn('frank');
    const frankMe = await me(frank);
    assert.equal(frankMe.userId, 'frank');
    assert.equal(frankMe.email, 'erin@example.test');
    const { users } = await gw.storage.users.list({ search: 'erin@', limit: 50, offset: 0 });
    assert.deepEqual(users.map(({ userId }) => userId).sort(), ['erin', 'frank']);
    // Erin's account is untouched and her session is still hers.
    assert.deepEqual(await me(erin), erinBefore);
    assert.equal((await gw.storage.users.findByUserId('erin'))?.email, 'erin@example.test');
  });

  test('a session id in the query or a header, instead of the cookie, is ignored', async () => {
    const browser = await signedIn('carol');
    const sid = browser.cookies(gw.url).get('ssogate_session') ?? '';
    assert.ok(sid.length > 20);
    const ask = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${gw.url}${path}`, {
        headers: { accept: 'application/json', ...headers },
        redirect: 'manual',
      });
    // The cookie itself works.
    assert.equal((await ask('/_sso/me', { cookie: `ssogate_session=${sid}` })).status, 200);
    for (const name of ['sid', 'session', 'ssogate_session', 'session_id'])
      assert.equal((await ask(`/_sso/me?${name}=${encodeURIComponent(sid)}`)).status, 401, name);
    for (const [name, value] of [
      ['authorization', `Bearer ${sid}`],
      ['x-session-id', sid],
      ['x-ssogate-session', sid],
      ['ssogate_session', sid],
    ] as const)
      assert.equal((await ask('/_sso/me', { [name]: value })).status, 401, name);
    // A protected page sends the browser to sign in rather than serving it.
    const page = await ask(`/home?sid=${encodeURIComponent(sid)}`, {
      accept: 'text/html',
      'x-session-id': sid,
    });
    assert.equal(page.status, 302);
    assert.ok(
      (page.headers.get('location') ?? '').startsWith(`${gw.example.url}/get/authorize?`),
      page.headers.get('location') ?? '',
    );
  });

  test('placeholder text as a display name is stored and shown literally', async () => {
    const name = '${app_secret} ${access_token} ${state} {{appid}} %s $(id)';
    gw.example.updateUser('dave', { name });
    const browser = await signedIn('dave');
    assert.equal((await me(browser)).userName, name);
    const page = await browser.open(`${gw.url}/home`);
    assert.equal(page.status, 200);
    assert.ok(page.body.includes('${app_secret} ${access_token} ${state}'), page.body);
    assert.equal(page.body.includes(appSecret), false);
    const user = await gw.storage.users.findByUserId('dave');
    assert.equal(user?.userName, name);
    const stored = await storedTexts();
    assert.ok(stored.includes('${app_secret}'));
    assert.equal(stored.includes(appSecret), false, 'the database holds the secret in clear');
  });

  test('an error_description with CR, LF and forged log lines stays on one escaped line', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, 'alice');
    const forged = '{"level":30,"msg":"FORGED_LINE","userId":"admin"}';
    gw.example.failNext('authorize', {
      error: 'access_denied',
      description: `denied\r\n${forged}\nINFO FAKE_PLAIN_LINE\r`,
    });
    const lines = gw.logLines.length;
    const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/x`);
    assert.equal(page.status, 400, page.body);
    const written = gw.logLines.slice(lines);
    const carrying = written.filter((line) => line.includes('FORGED_LINE'));
    assert.equal(carrying.length, 1, written.join(''));
    for (const line of gw.logLines) {
      // One write, one line, one JSON object.
      assert.equal(line.indexOf('\n'), line.length - 1, line);
      assert.equal(line.includes('\r'), false, line);
      const parsed = JSON.parse(line) as Record<string, unknown>;
      assert.notEqual(parsed.msg, 'FORGED_LINE');
    }
    assert.match(carrying[0] ?? '', /FAKE_PLAIN_LINE/);
  });

  test('no access token, refresh token or code is in the database after sign-ins', async () => {
    const browser = await signedIn('alice', 'example-standard');
    const bearer = gw.example.requests
      .map(({ headers }) => /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1])
      .findLast((token) => token !== undefined);
    assert.ok(bearer?.startsWith(issuedPrefix));
    // A token answer that also carries a refresh token.
    const refreshToken = `${issuedPrefix}refresh_4a7c`;
    gw.example.failNext('token', {
      body: JSON.stringify({
        access_token: bearer,
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: refreshToken,
      }),
    });
    const again = await browser.open(`${gw.url}/_sso/login/example-standard?return_to=/r`);
    assert.equal(again.status, 200, again.body);
    assert.ok(gw.example.requests.some(({ path }) => path.endsWith('/token')));
    const texts = await everyStoredText(gw.gateway.config.database);
    assert.ok(
      texts.some(({ table }) => table === 'sessions') || testBackendName().endsWith('redis'),
    );
    const found = texts.filter(({ value }) => value.includes(issuedPrefix));
    assert.deepEqual(
      found.map(({ table, column }) => `${table}.${column}`),
      [],
      'a code or token issued by the server is stored in clear',
    );
    assert.equal(
      texts.some(({ value }) => value.includes(refreshToken)),
      false,
    );
  });

  test('while the server of one entry hangs, a sign-in through another entry completes', async () => {
    const waiting = gw.browser();
    await signInAtExample(waiting, gw.example.url, 'alice');
    let settled = false;
    const pending = waiting.open(`${gw.url}/_sso/login/hung?return_to=/h`).finally(() => {
      settled = true;
    });
    // The hung entry's token call has reached its server and waits there.
    await waitUntil(
      () => {
        if (hungSockets.length > 0) return true;
        assert.ok(!settled, 'the token call never reached the hung server');
        return false;
      },
      { message: 'the token call to reach the hung server', timeoutMs: 5000 },
    );
    const other = await signedIn('gina');
    assert.equal((await me(other)).userId, 'gina');
    assert.equal(settled, false, 'the hung sign-in ended before the other one completed');
    // End the hang: the waiting sign-in fails coded, never with a session.
    for (const socket of hungSockets) socket.destroy();
    const page = await pending;
    assert.equal(page.status, 502, page.body);
    assert.match(page.body, /token_request_failed/);
  });
});
