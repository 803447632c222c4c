import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { WebSocket } from 'undici';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { freePort } from '../../test-support/free-port.js';
import { adminSpellings } from '../../test-support/path-spellings.js';
import { waitUntil } from '../../test-support/wait-until.js';
import type { EchoUpstream, Seen } from './test-support/upstream-fixture.js';
import { signedInCookie, startEchoUpstream } from './test-support/upstream-fixture.js';
import type { RawUpstream } from './test-support/raw-upstream.js';
import { frameRequests, rawExchange, startRawUpstream } from './test-support/raw-upstream.js';

/** The header list of a WebSocket handshake, with a fresh key. */
function webSocketHandshake(): string[] {
  return [
    'Connection',
    'Upgrade',
    'Upgrade',
    'websocket',
    'Sec-WebSocket-Version',
    '13',
    'Sec-WebSocket-Key',
    randomBytes(16).toString('base64'),
  ];
}

/** One raw request with exactly these header lines (duplicates and odd spellings kept). */
function rawRequest(
  url: string,
  method: string,
  headers: string[],
  body?: Buffer | Readable,
): Promise<{ response: IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    // With a list of headers, Node adds no Host of its own.
    const withHost = ['Host', new URL(url).host, ...headers];
    const outgoing = httpRequest(url, { method, headers: withHost }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ response, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    // A handshake that went through ends the request here (the socket is not needed).
    outgoing.on('upgrade', (response: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      resolve({ response, text: '' });
    });
    outgoing.on('error', reject);
    if (body instanceof Readable) body.pipe(outgoing);
    else outgoing.end(body);
  });
}

function seenBy(text: string): Seen {
  return JSON.parse(text) as Seen;
}

describe('reverse proxy', () => {
  let upstream: EchoUpstream;
  let other: EchoUpstream;
  let raw: RawUpstream;
  let gw: TestGateway;
  let cookie: string;

  before(async () => {
    upstream = await startEchoUpstream({ slowMs: 3_000, plantSessionCookie: true });
    other = await startEchoUpstream();
    raw = await startRawUpstream();
    const down = `http://127.0.0.1:${await freePort()}`;
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: {
        SSOGATE_UPSTREAM: JSON.stringify({
          '/': upstream.url,
          '/other': other.url,
          '/raw': raw.url,
          '/down': down,
        }),
        SSOGATE_UPSTREAM_TIMEOUT_SECONDS: '1',
        SSOGATE_ACCESS_RULES: JSON.stringify([
          { path: '/admin', users: ['root'], admins: true },
          { path: '/sales', departments: ['Sales'] },
          // The public URL's host, on any port, and a host this gateway does not serve.
          { path: '/hr', host: '127.0.0.1', users: ['root'] },
          { path: '/elsewhere', host: 'other.example', users: ['root'] },
        ]),
      },
    });
    cookie = await signedInCookie(gw.gateway, 'bob', {
      email: 'bob@example.test',
      userName: 'Bob Builder',
      department: 'Sales',
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
    await other.close();
    await raw.close();
  });

  function assertNoAdminPathReachedBy(userId: string): void {
    assert.ok(
      !upstream.seen.some(
        (seen) =>
          seen.url.toLowerCase().includes('admin') &&
          seen.headers['x-auth-request-user'] === userId,
      ),
    );
  }

  test('an unsigned page load is sent to sign in; an unsigned API call gets 401', async () => {
    const page = await fetch(`${gw.url}/app/page?x=1`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(page.status, 302);
    assert.ok(page.headers.get('location')?.startsWith(`${gw.example.url}/`));
    const api = await fetch(`${gw.url}/app/data`, { method: 'POST', body: '{}' });
    assert.equal(api.status, 401);
    assert.equal(((await api.json()) as { error: { code: string } }).error.code, 'unauthenticated');
    assert.equal(upstream.seen.length, 0);
  });

  test('a browser that signs in lands on the upstream page it asked for', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const landed = await browser.open(`${gw.url}/app/page?x=1`);
    assert.equal(landed.status, 200);
    const seen = seenBy(landed.body);
    assert.equal(seen.url, '/app/page?x=1');
    assert.equal(seen.headers['x-auth-request-user'], 'alice');
    assert.equal(seen.headers['x-auth-request-email'], 'alice@example.test');
  });

  test('identity headers reach the upstream percent-encoded, % included', async () => {
    const seenAs = async (userId: string) => {
      const signed = await signedInCookie(gw.gateway, userId, { email: `${userId}@example.test` });
      const response = await fetch(`${gw.url}/app/who`, {
        headers: { cookie: signed, accept: 'application/json' },
      });
      assert.equal(response.status, 200);
      const { headers } = seenBy(await response.text());
      return [headers['x-auth-request-user'], headers['x-auth-request-email']];
    };
    assert.deepEqual(await seenAs('coll%C3%A9'), [
      'coll%25C3%25A9',
      'coll%25C3%25A9%40example.test',
    ]);
    assert.deepEqual(await seenAs('collé'), ['coll%C3%A9', 'coll%C3%A9%40example.test']);
  });

  test('a signed request reaches the upstream with identity and forwarding headers, without the gateway cookies either way', async () => {
    const { response, text } = await rawRequest(`${gw.url}/app/x?y=2`, 'GET', [
      'Cookie',
      `${cookie}; theme=dark; ssogate_binding=abc`,
      'Accept',
      'application/json',
      'X-Forwarded-For',
      '203.0.113.9',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      'secret-to-this-hop',
    ]);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['x-upstream'], 'echo');
    assert.deepEqual(response.headers['set-cookie'], ['app=1; Path=/', 'other=2; Path=/']);
    const seen = seenBy(text);
    assert.equal(seen.method, 'GET');
    assert.equal(seen.url, '/app/x?y=2');
    assert.equal(seen.headers['x-auth-request-user'], 'bob');
    assert.equal(seen.headers['x-auth-request-email'], 'bob@example.test');
    assert.equal(seen.headers['x-auth-request-preferred-username'], 'Bob Builder');
    assert.equal(seen.headers.cookie, 'theme=dark');
    assert.equal(seen.headers['x-forwarded-for'], '127.0.0.1');
    assert.equal(seen.headers['x-forwarded-proto'], 'http');
    assert.equal(seen.headers['x-forwarded-host'], new URL(gw.url).host);
    assert.equal(seen.headers.host, new URL(upstream.url).host);
    assert.equal(seen.headers['x-hop'], undefined);
  });

  test('identity headers sent by the client are removed, in any spelling and however often', async () => {
    const { text } = await rawRequest(`${gw.url}/forged`, 'GET', [
      'Cookie',
      cookie,
      'X-Auth-Request-User',
      'root',
      'x-auth-request-user',
      'root2',
      'X_Auth_Request_User',
      'root3',
      'X-AUTH-REQUEST-EMAIL',
      'root@example.test',
      'x-auth-request-groups',
      'admins',
    ]);
    const seen = seenBy(text);
    const identity = seen.rawHeaders.filter(
      (_value, index) =>
        index % 2 === 0 &&
        (seen.rawHeaders[index] ?? '')
          .toLowerCase()
          .replaceAll('_', '-')
          .startsWith('x-auth-request-'),
    );
    assert.deepEqual(identity.map((name) => name.toLowerCase()).sort(), [
      'x-auth-request-email',
      'x-auth-request-preferred-username',
      'x-auth-request-user',
    ]);
    assert.equal(seen.headers['x-auth-request-user'], 'bob');
    // Without a session, a forged header earns nothing either.
    const anonymous = await rawRequest(`${gw.url}/forged`, 'GET', ['X-Auth-Request-User', 'root']);
    assert.equal(anonymous.response.statusCode, 401);
  });

  test('headers that name another path are removed from client requests', async () => {
    const names = [
      'X-Original-URL',
      'X-Rewrite-URL',
      'X-Original-URI',
      'X-Forwarded-Uri',
      'X-Forwarded-Path',
      'X-Forwarded-Prefix',
    ];
    const { text } = await rawRequest(`${gw.url}/rewritten`, 'GET', [
      'Cookie',
      cookie,
      ...names.flatMap((name) => [name, '/admin/secret']),
    ]);
    const seen = seenBy(text);
    assert.equal(seen.url, '/rewritten');
    for (const name of names) assert.equal(seen.headers[name.toLowerCase()], undefined, name);
  });

  test('a POST body of several MiB streams through intact, whatever its type', async () => {
    const body = randomBytes(6 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: 97 }, (_, index) =>
      body.subarray(
        Math.floor((index * body.length) / 97),
        Math.floor(((index + 1) * body.length) / 97),
      ),
    );
    for (const type of ['application/octet-stream', 'application/json']) {
      const { response, text } = await rawRequest(
        `${gw.url}/upload`,
        'POST',
        ['Cookie', cookie, 'Content-Type', type, 'Transfer-Encoding', 'chunked'],
        Readable.from(chunks),
      );
      assert.equal(response.statusCode, 200, text);
      const seen = seenBy(text);
      assert.equal(seen.bodyBytes, body.length);
      assert.equal(seen.bodySha256, createHash('sha256').update(body).digest('hex'));
      assert.equal(seen.headers['content-type'], type);
    }
    const { text } = await rawRequest(`${gw.url}/upload`, 'PUT', ['Cookie', cookie], body);
    assert.equal(seenBy(text).bodyBytes, body.length);
  });

  test('a chunked body on a method without one by default reaches the upstream framed, as one request', async () => {
    const smuggled = 'GET /admin/secret HTTP/1.1\r\nHost: x\r\nX-Auth-Request-User: root\r\n\r\n';
    const host = new URL(gw.url).host;
    for (const method of ['GET', 'DELETE', 'OPTIONS']) {
      const answer = await rawExchange(
        gw.url,
        `${method} /raw/${method} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n` +
          `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
          `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`,
      );
      assert.match(answer, /^HTTP\/1\.1 200 /, method);
    }
    // Unframed, the body arrives after the upstream has answered: wait for all of it.
    await waitUntil(() => raw.received.join('').split('X-Auth-Request-User: root').length === 4, {
      message: 'the three requests, bodies and all',
      timeoutMs: 2_000,
    });
    const framed = raw.received.map((bytes) => frameRequests(bytes));
    const heads = framed.flatMap(({ requests }) =>
      requests.map(({ head }) => head.split('\r\n')[0]),
    );
    assert.deepEqual(heads.sort(), [
      'DELETE /raw/DELETE HTTP/1.1',
      'GET /raw/GET HTTP/1.1',
      'OPTIONS /raw/OPTIONS HTTP/1.1',
    ]);
    for (const { requests, rest } of framed) {
      assert.equal(rest, '');
      for (const { body } of requests) assert.equal(body, smuggled);
    }
  });

  test('a WebSocket echoes through; without a session the handshake is refused', async () => {
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/socket`, {
      headers: { cookie, 'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA' },
    });
    const reply = await new Promise<string>((resolve, reject) => {
      socket.addEventListener('open', () => {
        socket.send('hello');
      });
      socket.addEventListener('message', (event) => {
        resolve(String(event.data));
      });
      socket.addEventListener('error', () => {
        reject(new Error('WebSocket failed'));
      });
    });
    assert.equal(reply, 'echo: hello');
    socket.close();
    const handshake = upstream.seen.find((seen) => seen.url === '/socket');
    assert.equal(handshake?.headers['x-auth-request-user'], 'bob');
    assert.equal(handshake.headers.cookie, undefined);
    assert.equal(handshake.headers['http2-settings'], undefined);

    const refused = await rawRequest(`${gw.url}/socket`, 'GET', webSocketHandshake()).catch(
      (error: unknown) => error,
    );
    assert.ok(!(refused instanceof Error), String(refused));
    assert.equal((refused as { response: IncomingMessage }).response.statusCode, 401);
    const reserved = await rawRequest(`${gw.url}/_sso/socket`, 'GET', [
      'Cookie',
      cookie,
      ...webSocketHandshake(),
    ]);
    assert.equal(reserved.response.statusCode, 404);
    assert.ok(!upstream.seen.some((seen) => seen.url.startsWith('/_sso')));
  });

  test('upgrades other than a WebSocket handshake, and any under /_sso, are refused before any upstream', async () => {
    const host = new URL(gw.url).host;
    const key = randomBytes(16).toString('base64');
    const cases: [string, string, string[]][] = [
      [
        'GET',
        '/raw/h2c',
        [
          'Connection: Upgrade, HTTP2-Settings',
          'Upgrade: h2c',
          'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
        ],
      ],
      [
        'GET',
        '/raw/both',
        ['Connection: Upgrade', 'Upgrade: websocket, h2c', `Sec-WebSocket-Key: ${key}`],
      ],
      [
        'GET',
        '/raw/keyless',
        ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13'],
      ],
      [
        'POST',
        '/raw/post',
        [
          'Connection: Upgrade',
          'Upgrade: websocket',
          `Sec-WebSocket-Key: ${key}`,
          'Content-Length: 0',
        ],
      ],
      [
        'GET',
        '/_sso/me',
        ['Connection: Upgrade', 'Upgrade: websocket', `Sec-WebSocket-Key: ${key}`],
      ],
      [
        'GET',
        '/_SSO/%2e%2e/_sso/me',
        ['Connection: Upgrade', 'Upgrade: WebSocket', `Sec-WebSocket-Key: ${key}`],
      ],
    ];
    for (const [method, path, lines] of cases) {
      const answer = await rawExchange(
        gw.url,
        [`${method} ${path} HTTP/1.1`, `Host: ${host}`, `Cookie: ${cookie}`, ...lines, '', ''].join(
          '\r\n',
        ),
      );
      // The gateway's own paths have no WebSocket routes: not found, like any unknown route.
      const [status, code] = /^\/_sso\//i.test(path)
        ? ['404', 'not_found']
        : ['400', 'request_invalid'];
      assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), path);
      assert.match(answer, new RegExp(`"code":"${code}"`), path);
    }
    assert.ok(
      !raw.received.some((bytes) => /^(GET|POST) \/raw\/(h2c|both|keyless|post) /m.test(bytes)),
    );
    assert.ok(!upstream.seen.some((seen) => seen.url.toLowerCase().includes('_sso')));
  });

  test('the longest prefix picks the upstream', async () => {
    const before = other.seen.length;
    const { text } = await rawRequest(`${gw.url}/other/page`, 'GET', ['Cookie', cookie]);
    assert.equal(seenBy(text).url, '/other/page');
    assert.equal(other.seen.length, before + 1);
    const { text: elsewhere } = await rawRequest(`${gw.url}/otherwise`, 'GET', ['Cookie', cookie]);
    assert.equal(seenBy(elsewhere).url, '/otherwise');
    assert.equal(other.seen.length, before + 1);
  });

  test('an upstream that is down gives a coded 502 page; one too slow a 504', async () => {
    const down = await rawRequest(`${gw.url}/down/page`, 'GET', [
      'Cookie',
      cookie,
      'Accept',
      'text/html',
    ]);
    assert.equal(down.response.statusCode, 502);
    assert.match(down.text, /upstream_unavailable/);
    const slow = await rawRequest(`${gw.url}/slow`, 'GET', ['Cookie', cookie]);
    assert.equal(slow.response.statusCode, 504);
    assert.equal(
      (JSON.parse(slow.text) as { error: { code: string } }).error.code,
      'upstream_timeout',
    );
  });

  test('access rules: 403 page or JSON for users not listed, in every spelling of the path', async () => {
    for (const path of ['/admin', '/admin/x', '/ADMIN', '/%61dmin', '//admin', '/x/../admin']) {
      const page = await rawRequest(`${gw.url}${path}`, 'GET', [
        'Cookie',
        cookie,
        'Accept',
        'text/html',
      ]);
      assert.equal(page.response.statusCode, 403, path);
      assert.match(page.text, /access_denied/);
    }
    const api = await rawRequest(
      `${gw.url}/admin/api`,
      'POST',
      ['Cookie', cookie],
      Buffer.from('{}'),
    );
    assert.equal(api.response.statusCode, 403);
    assert.equal((JSON.parse(api.text) as { error: { code: string } }).error.code, 'access_denied');
    const sales = await rawRequest(`${gw.url}/sales/report`, 'GET', ['Cookie', cookie]);
    assert.equal(sales.response.statusCode, 200);
    // Rules with a host are matched against the public URL's host.
    const hr = await rawRequest(`${gw.url}/hr/pay`, 'GET', ['Cookie', cookie]);
    assert.equal(hr.response.statusCode, 403);
    const elsewhere = await rawRequest(`${gw.url}/elsewhere`, 'GET', ['Cookie', cookie]);
    assert.equal(elsewhere.response.statusCode, 200);
    const administrator = await signedInCookie(gw.gateway, 'carol', { isAdmin: true });
    const allowed = await rawRequest(`${gw.url}/admin/x`, 'GET', ['Cookie', administrator]);
    assert.equal(allowed.response.statusCode, 200);
    const salesForOthers = await rawRequest(`${gw.url}/sales`, 'GET', ['Cookie', administrator]);
    assert.equal(salesForOthers.response.statusCode, 403);
    assertNoAdminPathReachedBy('bob');
  });

  test('every spelling of a ruled path is judged as that path or refused with a coded 400, over HTTP and WebSocket', async () => {
    const host = new URL(gw.url).host;
    for (const path of adminSpellings) {
      for (const upgrade of [
        ['Connection: close'],
        [
          'Connection: Upgrade',
          'Upgrade: websocket',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        ],
      ]) {
        const answer = await rawExchange(
          gw.url,
          [`GET ${path} HTTP/1.1`, `Host: ${host}`, `Cookie: ${cookie}`, ...upgrade, '', ''].join(
            '\r\n',
          ),
        );
        assert.match(
          answer,
          /^HTTP\/1\.1 (403 [^]*"code":"access_denied"|400 [^]*"code":"request_invalid")/,
          `${path}${upgrade.length > 1 ? ' (WebSocket)' : ''}`,
        );
      }
    }
    assertNoAdminPathReachedBy('bob');
  });

  test('the upstream gets the path the rules judged: decoded once, dot segments resolved, re-escaped', async () => {
    const host = new URL(gw.url).host;
    for (const [sent, seenPath] of [
      ['/x/../app/./page//deep/%61%62?q=%2F&r=a/../b', '/app/page/deep/ab?q=%2F&r=a/../b'],
      ['/caf%c3%a9/%7Euser/a%20b/a+b:c@d', '/caf%C3%A9/~user/a%20b/a+b:c@d'],
      ['/a/b/..', '/a/'],
      ['/%2e%2e/x', '/x'],
    ]) {
      const answer = await rawExchange(
        gw.url,
        `GET ${sent} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(seenBy(answer.split('\r\n\r\n')[1] ?? '').url, seenPath, sent);
    }
  });

  test("the gateway's own routes keep their place and their body limits", async () => {
    const me = await rawRequest(`${gw.url}/_sso/me`, 'GET', ['Cookie', cookie]);
    assert.equal((JSON.parse(me.text) as { userId: string }).userId, 'bob');
    const unknown = await rawRequest(`${gw.url}/_sso/nothing`, 'GET', ['Cookie', cookie]);
    assert.equal(unknown.response.statusCode, 404);
    // Bodies stream only to upstreams: the gateway's forms keep their limit.
    const tooLarge = await rawRequest(
      `${gw.url}/_sso/logout`,
      'POST',
      ['Cookie', cookie, 'Content-Type', 'application/x-www-form-urlencoded'],
      Buffer.alloc(2 * 1024 * 1024, 'a'),
    );
    assert.equal(tooLarge.response.statusCode, 400);
    assert.match(tooLarge.text, /request_invalid/);
  });
});
