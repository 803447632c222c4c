import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { adminSpellings } from '../../test-support/path-spellings.js';
import { normaliseHost } from '../../foundation/config/proxy-settings.js';
import { sessionHash, startHostSession } from '../sessions/session-service.js';
import { identityHeaderNames } from './identity-headers.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import {
  signedInCookie,
  startEchoUpstream,
} from '../reverse-proxy/test-support/upstream-fixture.js';

describe('GET /_sso/auth', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }] });
  });
  after(async () => gw.close());

  test('204 with the identity headers for a valid session, 401 without one', async () => {
    const browser = gw.browser();
    const anonymous = await browser.open(`${gw.url}/_sso/auth`, { accept: '*/*' });
    assert.equal(anonymous.status, 401);
    await signInAtExample(browser, gw.example.url);
    await browser.open(`${gw.url}/`);
    const checked = await browser.open(`${gw.url}/_sso/auth`, { accept: '*/*' });
    assert.equal(checked.status, 204);
    assert.equal(checked.headers.get('x-auth-request-user'), 'alice');
    assert.equal(checked.headers.get('x-auth-request-email'), 'alice@example.test');
    assert.equal(checked.headers.get('x-auth-request-preferred-username'), 'Alice Liddell');
  });

  test('identity headers are percent-encoded so that no two users share a value', async () => {
    const headersOf = async (userId: string) => {
      const cookie = await signedInCookie(gw.gateway, userId, { userName: `${userId} name` });
      const checked = await fetch(`${gw.url}/_sso/auth`, { headers: { cookie } });
      assert.equal(checked.status, 204);
      return [
        checked.headers.get('x-auth-request-user'),
        checked.headers.get('x-auth-request-preferred-username'),
      ];
    };
    assert.deepEqual(await headersOf('coll%C3%A9'), ['coll%25C3%25A9', 'coll%25C3%25A9%20name']);
    assert.deepEqual(await headersOf('collé'), ['coll%C3%A9', 'coll%C3%A9%20name']);
    assert.deepEqual(await headersOf('adm%69n'), ['adm%2569n', 'adm%2569n%20name']);
  });

  test('an anonymous check is logged at debug, not as a warning; a real failure still warns', async () => {
    gw.logLines.length = 0;
    assert.equal((await fetch(`${gw.url}/_sso/auth`)).status, 401);
    const forged = await fetch(`${gw.url}/_sso/callback/example-get?code=c0de&state=forged`);
    assert.equal(forged.status, 400);
    const lines = gw.logLines.map(
      (line) => JSON.parse(line) as { level: number; code?: string; msg: string },
    );
    const coded = (level: number) =>
      lines.filter((line) => line.level === level && line.code !== undefined).map((l) => l.code);
    assert.deepEqual(coded(20), ['unauthenticated']);
    assert.deepEqual(coded(40), ['state_invalid']);
  });
});

describe('identity headers that HTTP would read as one', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => gw.close());

  test('spaces around a value and commas in it are encoded, through the route and the fast path', async () => {
    const received = new Map<string, string>();
    for (const userId of [' alice', 'alice ', '  alice  ', 'x, admin']) {
      const cookie = await signedInCookie(gw.gateway, userId, {
        email: `${userId}@example.test `,
        userName: `${userId}, admin`,
      });
      // The first check goes the full way and remembers the session; the second takes the fast path.
      const answers = [];
      for (let round = 0; round < 2; round += 1) {
        const checked = await fetch(`${gw.url}/_sso/auth`, { headers: { cookie } });
        assert.equal(checked.status, 204);
        answers.push(
          identityHeaderNames.map((header) => checked.headers.get(header) ?? 'none').join('|'),
        );
      }
      // Remembered now: the fast path answered the second check
      // (src/foundation/http/fast-path-parity.test.ts).
      if (gw.gateway.sessionCache.enabled)
        assert.ok(gw.gateway.sessionCache.remembered(cookie.split('=')[1]) !== undefined);
      assert.equal(answers[1], answers[0]);
      // fetch, like every HTTP parser, trimmed the values; decoded, they are still the user's.
      const [user, email, name] = (answers[0] ?? '').split('|').map(decodeURIComponent);
      assert.deepEqual(
        [user, email, name],
        [userId, `${userId}@example.test `, `${userId}, admin`],
      );
      assert.doesNotMatch(answers[0] ?? '', /,/);
      received.set((answers[0] ?? '').split('|')[0] ?? '', userId);
    }
    assert.equal(received.size, 4);
  });
});

describe('forward-auth with access rules and the redirecting variant', () => {
  let gw: TestGateway;
  let app: EchoUpstream;
  let appHost: string;
  let cookie: string;
  before(async () => {
    app = await startEchoUpstream();
    appHost = new URL(app.url).host;
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: {
        SSOGATE_FORWARD_AUTH_HOSTS: `${appHost},*.corp.example`,
        SSOGATE_ACCESS_RULES: JSON.stringify([
          { path: '/admin', admins: true },
          { host: 'wiki.corp.example', path: '/', users: ['alice'] },
        ]),
      },
    });
    cookie = await signedInCookie(gw.gateway, 'bob', { email: 'bob@example.test' });
  });
  after(async () => {
    await gw.close();
    await app.close();
  });

  test('the original URI and host decide the access rule: 403 JSON, which nginx passes on', async () => {
    const check = (headers: Record<string, string>) =>
      fetch(`${gw.url}/_sso/auth`, { headers: { cookie, ...headers } });
    assert.equal(
      (await check({ 'x-forwarded-uri': '/docs', 'x-forwarded-host': appHost })).status,
      204,
    );
    // A rule with a host covers /docs: a request that does not name its host is refused.
    assert.equal((await check({ 'x-forwarded-uri': '/docs' })).status, 403);
    const denied = await check({ 'x-forwarded-uri': '/Admin/../admin/users?x=1' });
    assert.equal(denied.status, 403);
    assert.equal(
      ((await denied.json()) as { error: { code: string } }).error.code,
      'access_denied',
    );
    assert.equal((await check({ 'x-original-uri': '/%61dmin' })).status, 403);
    // On the application hosts, bob holds the sessions handed to each (a
    // handoff's); the auth host's own session serves none of them.
    const onHost = async (host: string, headers: Record<string, string>) =>
      fetch(`${gw.url}/_sso/auth`, {
        headers: { cookie: await hostCookie(host), 'x-forwarded-host': host, ...headers },
      });
    for (const host of [
      'wiki.corp.example',
      'WIKI.corp.example.',
      'wiki.corp.example:443',
      'wiki.corp.example:8443',
    ])
      assert.equal((await onHost(host, { 'x-forwarded-uri': '/' })).status, 403, host);
    assert.equal((await onHost('other.corp.example', { 'x-forwarded-uri': '/' })).status, 204);
    // A list is no host: wiki's session is no session there, nor the sign-in's.
    for (const own of [await hostCookie('wiki.corp.example'), cookie]) {
      const listed = await check({
        cookie: own,
        'x-forwarded-host': 'wiki.corp.example, other.corp.example',
        'x-forwarded-uri': '/',
      });
      assert.equal(listed.status, 401);
    }
    assert.equal(
      (await check({ 'x-forwarded-host': 'other.corp.example', 'x-forwarded-uri': '/' })).status,
      401,
      "the auth host's session on an application host",
    );
    // Without X-Forwarded-Host, the host of X-Original-URL (ingress-nginx's
    // auth-url) names the session's host and the rules' host: wiki's session
    // is taken (and refused by wiki's rule), on git it is none.
    const wikiSession = await hostCookie('wiki.corp.example');
    for (const [original, status] of [
      ['https://wiki.corp.example/x', 403],
      ['https://git.corp.example/x', 401],
    ] as const) {
      const answer = await check({
        cookie: wikiSession,
        'x-original-url': original,
        'x-forwarded-uri': '/x',
      });
      assert.equal(answer.status, status, original);
    }
  });

  /** bob's session on `host`, as a handoff makes it. */
  async function hostCookie(host: string): Promise<string> {
    const signIn = await gw.storage.sessions.get(sessionHash(cookie.split('=')[1] ?? ''));
    assert.ok(signIn !== undefined);
    const id = await startHostSession(gw.gateway.sessions, signIn, normaliseHost(host));
    return `ssogate_session=${id}`;
  }

  test('a path the proxy did not send is refused, through the route and the fast path', async () => {
    const codeOf = async (response: Response) => {
      const text = await response.text();
      return text === '' ? '' : (JSON.parse(text) as { error: { code: string } }).error.code;
    };
    for (const route of ['/_sso/auth', '/_sso/auth/redirect']) {
      const check = async (headers: Record<string, string>) => {
        const response = await fetch(`${gw.url}${route}`, {
          headers: { cookie, 'x-forwarded-host': appHost, ...headers },
        });
        return `${response.status} ${await codeOf(response)}`;
      };
      // Remembered after the first check, the session's checks take the
      // fast path from then on (src/foundation/http/fast-path-parity.test.ts).
      assert.equal(await check({ 'x-forwarded-uri': '/docs' }), '204 ');
      assert.equal(await check({ 'x-forwarded-uri': '/docs' }), '204 ');
      // Twice each: neither the fast path nor the route may let these through.
      for (let round = 0; round < 2; round += 1) {
        for (const [headers, expected] of [
          [
            { 'x-original-uri': '/admin', 'x-forwarded-uri': '/docs' },
            '400 forwarded_uri_conflict',
          ],
          [
            { 'x-original-uri': '/docs', 'x-forwarded-uri': '/admin' },
            '400 forwarded_uri_conflict',
          ],
          [
            { 'x-original-uri': '/docs', 'x-forwarded-uri': '/%64ocs' },
            '400 forwarded_uri_conflict',
          ],
          [{}, '400 forwarded_uri_missing'],
          [{ 'x-original-uri': '/docs', 'x-forwarded-uri': '/docs' }, '204 '],
          [{ 'x-original-uri': '/admin', 'x-forwarded-uri': '/admin' }, '403 access_denied'],
          [{ 'x-original-uri': '/docs' }, '204 '],
          // ingress-nginx's auth-url check names the path in X-Original-URL
          // alone, and passes on whatever URI header the client adds.
          [{ 'x-original-url': `http://${appHost}/docs?x=1` }, '204 '],
          [{ 'x-original-url': `http://${appHost}/admin` }, '403 access_denied'],
          [{ 'x-original-url': `http://${appHost}/x/../admin` }, '403 access_denied'],
          [
            { 'x-original-url': `http://${appHost}/admin`, 'x-forwarded-uri': '/docs' },
            '400 forwarded_uri_conflict',
          ],
          [
            { 'x-original-url': `http://${appHost}/admin`, 'x-original-uri': '/' },
            '400 forwarded_uri_conflict',
          ],
          [{ 'x-original-url': `http://${appHost}/docs`, 'x-forwarded-uri': '/docs' }, '204 '],
          [{ 'x-original-url': `http://${appHost}\\admin` }, '400 request_invalid'],
          [{ 'x-original-url': '/admin' }, '400 request_invalid'],
        ] as const) {
          assert.equal(await check(headers), expected, `${route} ${JSON.stringify(headers)}`);
        }
      }
    }
  });

  test('every spelling of a ruled path is judged as that path, or refused with a coded 400', async () => {
    // Twice each: the first check may go the full way, the second the fast path.
    for (const uri of adminSpellings.flatMap((spelling) => [spelling, spelling])) {
      for (const header of ['x-forwarded-uri', 'x-original-uri']) {
        const response = await fetch(`${gw.url}/_sso/auth`, {
          headers: { cookie, 'x-forwarded-host': appHost, [header]: uri },
        });
        const text = await response.text();
        const code =
          text === '' ? '' : (JSON.parse(text) as { error: { code: string } }).error.code;
        assert.ok(
          (response.status === 403 && code === 'access_denied') ||
            (response.status === 400 && code === 'request_invalid'),
          `${header}: ${uri} got ${response.status} ${code}`,
        );
      }
    }
    const plain = await fetch(`${gw.url}/_sso/auth`, {
      headers: { cookie, 'x-forwarded-host': appHost, 'x-forwarded-uri': '/x/../docs/./a%20b' },
    });
    assert.equal(plain.status, 204);
  });

  test('signed in: 204 with identity headers; not signed in, no page: 401', async () => {
    const signed = await fetch(`${gw.url}/_sso/auth/redirect`, {
      headers: { cookie, 'x-forwarded-host': appHost, 'x-forwarded-uri': '/x' },
    });
    assert.equal(signed.status, 204);
    assert.equal(signed.headers.get('x-auth-request-user'), 'bob');
    const api = await fetch(`${gw.url}/_sso/auth/redirect`, {
      headers: { accept: 'application/json', 'x-forwarded-host': appHost },
    });
    assert.equal(api.status, 401);
    const post = await fetch(`${gw.url}/_sso/auth/redirect`, {
      headers: { accept: 'text/html', 'x-forwarded-method': 'POST', 'x-forwarded-host': appHost },
    });
    assert.equal(post.status, 401);
  });

  test('a page load is sent to sign in and, after it, back to the listed host', async () => {
    const forwarded = {
      accept: 'text/html',
      'x-forwarded-method': 'GET',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': appHost,
      'x-forwarded-uri': '/wiki/page?a=1&b=2',
    };
    const response = await fetch(`${gw.url}/_sso/auth/redirect`, {
      headers: forwarded,
      redirect: 'manual',
    });
    assert.equal(response.status, 302);
    const location = response.headers.get('location') ?? '';
    const signIn = new URL(location);
    assert.equal(signIn.origin, gw.url);
    assert.equal(signIn.pathname, '/_sso/login/example-get');
    assert.equal(
      signIn.searchParams.get('return_to'),
      `/_sso/auth/return?rd=${encodeURIComponent(`${app.url}/wiki/page?a=1&b=2`)}`,
    );
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const landed = await browser.open(location);
    assert.equal(landed.url, `${app.url}/wiki/page?a=1&b=2`);
    assert.equal(landed.status, 200);

    const sameHost = await fetch(`${gw.url}/_sso/auth/redirect`, {
      headers: { ...forwarded, 'x-forwarded-host': new URL(gw.url).host },
      redirect: 'manual',
    });
    assert.equal(
      new URL(sameHost.headers.get('location') ?? '').searchParams.get('return_to'),
      '/wiki/page?a=1&b=2',
    );
  });

  test('hosts not listed are refused, before sign-in and after it', async () => {
    const refused = await fetch(`${gw.url}/_sso/auth/redirect`, {
      headers: { accept: 'text/html', 'x-forwarded-host': 'evil.example', 'x-forwarded-uri': '/' },
      redirect: 'manual',
    });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /request_invalid/);
    for (const rd of [
      'https://evil.example/',
      'https://corp.example.evil.example/',
      'javascript:alert(1)',
      '//evil.example',
    ]) {
      const hop = await fetch(`${gw.url}/_sso/auth/return?rd=${encodeURIComponent(rd)}`, {
        redirect: 'manual',
      });
      assert.equal(hop.headers.get('location'), '/', rd);
    }
    const listed = await fetch(
      `${gw.url}/_sso/auth/return?rd=${encodeURIComponent('https://ci.corp.example/build/1')}`,
      { redirect: 'manual' },
    );
    assert.equal(listed.headers.get('location'), 'https://ci.corp.example/build/1');
  });
});
