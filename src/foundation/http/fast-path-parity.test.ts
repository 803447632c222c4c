import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import type { EchoUpstream } from '../../features/reverse-proxy/test-support/upstream-fixture.js';
import {
  signedInCookie,
  startEchoUpstream,
} from '../../features/reverse-proxy/test-support/upstream-fixture.js';
import { sessionHash, startHostSession } from '../../features/sessions/session-service.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { FastPathServer } from '../../test-support/fast-path-server.js';
import { startFastPathServer } from '../../test-support/fast-path-server.js';
import { freePort } from '../../test-support/free-port.js';
import { routineLineEvery } from '../logging/routine-lines.js';

/**
 * Every decision the fast paths (src/features/forward-auth/fast-path.ts,
 * src/features/reverse-proxy/fast-path.ts) take before the framework is the route's:
 * each case is sent to a server with the routes alone (the app's router,
 * no fast path) and to one with the fast paths in front of that router, on
 * loopback, and both answers must match in status, the headers that matter
 * and the body. Each case also says whether the fast path answers it
 * itself or leaves it to the route (a session to look up, a page load to
 * send to sign in), and that is checked too.
 */

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The session cookie's owner, or none. */
  readonly cookie?: () => string;
  /** Whether the fast path answers itself; `remembered` when it takes a remembered session. */
  readonly fast: boolean | 'remembered';
  readonly status: number;
}

/** Headers that change from one answer to the next whoever answers. */
const perConnection = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
/**
 * Headers for a document, which an allowed check's 204 has none of: the
 * fast path leaves them out (src/features/forward-auth/decision.ts keeps Cache-Control).
 */
const documentOnly = new Set([
  'pragma',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'content-security-policy',
  'strict-transport-security',
]);

function send(port: number, one: Case, cookie: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: one.method ?? 'GET',
        path: one.path,
        agent: false,
        headers: { ...(cookie === undefined ? {} : { cookie }), ...one.headers },
      },
      (response) => {
        text(response).then((body) => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        }, reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(one.body);
  });
}

function listen(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = createServer(handler);
  return new Promise<Server>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

/** A log line without the fields that differ from one request to the next. */
function without(line: Record<string, unknown>, names: readonly string[]) {
  return Object.fromEntries(Object.entries(line).filter(([name]) => !names.includes(name)));
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** Every case as sent, and behind a trusted proxy naming the client (SSOGATE_TRUSTED_PROXIES). */
const variants = [
  { label: '', env: {}, headers: {}, client: '127.0.0.1' },
  {
    label: ', behind a trusted proxy',
    env: { SSOGATE_TRUSTED_PROXIES: '127.0.0.1' },
    headers: { 'x-forwarded-for': '198.51.100.7' },
    client: '198.51.100.7',
  },
];

for (const variant of variants) {
  describe(`the fast paths answer as the routes do${variant.label}`, () => {
    let upstream: EchoUpstream;
    let gw: TestGateway;
    let routesOnly: Server;
    let withFastPaths: FastPathServer;
    const cookies = new Map<string, string>();
    const cookieOf = (user: string) => () => cookies.get(user) ?? '';

    before(async () => {
      upstream = await startEchoUpstream();
      gw = await startTestGateway({
        env: {
          ...variant.env,
          SSOGATE_UPSTREAM: JSON.stringify({
            '/app': upstream.url,
            '/down': `http://127.0.0.1:${await freePort()}`,
          }),
          SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/app/admin', users: ['root'] }]),
          // The checks below come from the public URL's host, where a browser
          // without a session is sent to sign in; other.corp.example is an
          // application host of its own, which hands the sign-in off.
          SSOGATE_PUBLIC_URL: 'http://app.corp.example',
          SSOGATE_FORWARD_AUTH_HOSTS: 'app.corp.example,other.corp.example',
        },
      });
      for (const [user, attributes] of [
        ['dana', { email: 'dana@example.test', userName: 'dana' }],
        ['x, admin', { email: 'x,admin@example.test', userName: ' padded, name ' }],
        ['locked', {}],
        ['ended', {}],
      ] as const) {
        cookies.set(user, await signedInCookie(gw.gateway, user, attributes));
      }
      // dana's session on other.corp.example, handed from her sign-in.
      const danaSignIn = (cookies.get('dana') ?? '').split('=')[1] ?? '';
      const signIn = await gw.storage.sessions.get(sessionHash(danaSignIn));
      assert.ok(signIn !== undefined);
      const onOther = await startHostSession(gw.gateway.sessions, signIn, 'other.corp.example');
      cookies.set('dana at other', `ssogate_session=${onOther}`);
      const { app } = gw;
      routesOnly = await listen((request, response) => {
        app.routing(request, response);
      });
      withFastPaths = await startFastPathServer(gw);
    });
    after(async () => {
      routesOnly.close();
      await withFastPaths.close();
      await gw.close();
      await upstream.close();
    });

    const sendCase = (port: number, one: Case, cookie: string | undefined) =>
      send(port, { ...one, headers: { ...variant.headers, ...one.headers } }, cookie);
    const fastPort = () => Number(new URL(withFastPaths.url).port);
    const checked = { 'x-forwarded-host': 'app.corp.example', 'x-forwarded-proto': 'https' };
    const page = { accept: 'text/html,application/xhtml+xml' };
    const json = { accept: 'application/json' };
    const websocketIsh = {
      upgrade: 'websocket',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-version': '13',
    };
    const cases: Case[] = [
      // forward-auth: GET /_sso/auth and /_sso/auth/redirect
      ...(['/_sso/auth', '/_sso/auth/redirect'] as const).flatMap((path): Case[] => [
        {
          name: `${path}: signed in and allowed`,
          path,
          headers: { ...checked, 'x-forwarded-uri': '/docs' },
          cookie: cookieOf('dana'),
          fast: 'remembered',
          status: 204,
        },
        {
          name: `${path}: identity values with commas and spaces are encoded`,
          path,
          headers: { ...checked, 'x-forwarded-uri': '/docs' },
          cookie: cookieOf('x, admin'),
          fast: 'remembered',
          status: 204,
        },
        {
          name: `${path}: denied by an access rule`,
          path,
          headers: { ...checked, 'x-forwarded-uri': '/app/admin' },
          cookie: cookieOf('dana'),
          fast: 'remembered',
          status: 403,
        },
        {
          name: `${path}: X-Forwarded-Uri and X-Original-URI disagree`,
          path,
          headers: { ...checked, 'x-forwarded-uri': '/docs', 'x-original-uri': '/app/admin' },
          cookie: cookieOf('dana'),
          fast: 'remembered',
          status: 400,
        },
        {
          name: `${path}: no path named while access rules are set`,
          path,
          headers: checked,
          cookie: cookieOf('dana'),
          fast: 'remembered',
          status: 400,
        },
        {
          name: `${path}: no session, an API caller`,
          path,
          headers: { ...checked, ...json, 'x-forwarded-uri': '/docs' },
          fast: true,
          status: 401,
        },
        {
          name: `${path}: a session id nobody knows`,
          path,
          headers: { ...checked, ...page, 'x-forwarded-uri': '/docs' },
          cookie: () => 'ssogate_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
          fast: false,
          status: path === '/_sso/auth' ? 401 : 302,
        },
        {
          name: `${path}: a host's session used for another host`,
          path,
          headers: { ...checked, 'x-forwarded-uri': '/docs' },
          cookie: cookieOf('dana at other'),
          fast: 'remembered',
          status: 401,
        },
        {
          name: `${path}: websocket-ish headers on a signed-in check`,
          path,
          headers: { ...checked, ...websocketIsh, 'x-forwarded-uri': '/docs' },
          cookie: cookieOf('dana'),
          fast: 'remembered',
          status: 204,
        },
      ]),
      {
        name: '/_sso/auth/redirect: no session, a page load: sent to sign in',
        path: '/_sso/auth/redirect',
        headers: { ...checked, ...page, 'x-forwarded-uri': '/docs?x=1' },
        fast: true,
        status: 302,
      },
      {
        name: '/_sso/auth/redirect: no session, another host: handed off by the route',
        path: '/_sso/auth/redirect',
        headers: { ...checked, ...page, 'x-forwarded-host': 'other.corp.example' },
        fast: false,
        status: 302,
      },
      {
        name: "/_sso/auth/redirect: the sign-in's own session used for an application host: handed off by the route",
        path: '/_sso/auth/redirect',
        headers: { ...checked, ...page, 'x-forwarded-host': 'other.corp.example' },
        cookie: cookieOf('dana'),
        fast: false,
        status: 302,
      },
      {
        name: '/_sso/auth/redirect: no session, a form post: 401',
        path: '/_sso/auth/redirect',
        headers: { ...checked, ...page, 'x-forwarded-method': 'POST', 'x-forwarded-uri': '/f' },
        fast: true,
        status: 401,
      },
      {
        name: '/_sso/auth/redirect: no session, a host not listed',
        path: '/_sso/auth/redirect',
        headers: { ...page, 'x-forwarded-host': 'elsewhere.example', 'x-forwarded-uri': '/' },
        fast: true,
        status: 400,
      },
      // the reverse proxy
      {
        name: 'proxy: signed in and allowed',
        path: '/app/page?x=1',
        cookie: cookieOf('dana'),
        fast: 'remembered',
        status: 200,
      },
      {
        name: 'proxy: signed in, a body posted',
        method: 'POST',
        path: '/app/form',
        headers: { 'content-type': 'text/plain' },
        body: 'a body, streamed',
        cookie: cookieOf('dana'),
        fast: 'remembered',
        status: 200,
      },
      {
        name: 'proxy: identity values with commas and spaces are encoded',
        path: '/app/page',
        cookie: cookieOf('x, admin'),
        fast: 'remembered',
        status: 200,
      },
      {
        name: 'proxy: websocket-ish headers on a plain request',
        path: '/app/page',
        headers: websocketIsh,
        cookie: cookieOf('dana'),
        fast: 'remembered',
        status: 200,
      },
      {
        name: 'proxy: denied by an access rule, an API caller',
        path: '/app/admin/x',
        headers: json,
        cookie: cookieOf('dana'),
        fast: 'remembered',
        status: 403,
      },
      {
        name: 'proxy: denied by an access rule, a page load',
        path: '/app/admin/x',
        headers: page,
        cookie: cookieOf('dana'),
        fast: 'remembered',
        status: 403,
      },
      {
        name: 'proxy: the upstream is down',
        path: '/down/x',
        headers: page,
        cookie: cookieOf('dana'),
        fast: 'remembered',
        status: 502,
      },
      {
        name: 'proxy: no session, an API caller',
        path: '/app/page',
        headers: json,
        fast: true,
        status: 401,
      },
      {
        name: 'proxy: no session, HEAD from an API caller',
        method: 'HEAD',
        path: '/app/page',
        headers: json,
        fast: true,
        status: 401,
      },
      {
        name: 'proxy: no session, a page load: sent to sign in by the route',
        path: '/app/page?x=1',
        headers: page,
        fast: false,
        status: 302,
      },
      {
        name: "proxy: a host's session used for another host, an API caller",
        path: '/app/page',
        headers: json,
        cookie: cookieOf('dana at other'),
        fast: 'remembered',
        status: 401,
      },
      {
        name: 'proxy: a session id nobody knows',
        path: '/app/page',
        headers: json,
        cookie: () => 'ssogate_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        fast: false,
        status: 401,
      },
    ];

    /** The log lines a call wrote: request lines and failure lines. */
    async function logged<T>(run: () => Promise<T>) {
      const from = gw.logLines.length;
      const result = await run();
      // The request line of a proxied request is written when its response closes.
      await new Promise((resolve) => setImmediate(resolve));
      const lines = gw.logLines
        .slice(from)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      return { result, lines };
    }

    /** The body without the failure's reference (random, one per answer), as its log line names it. */
    function comparable(answer: Answer, lines: readonly Record<string, unknown>[]): Answer {
      let { body } = answer;
      for (const line of lines) {
        if (typeof line.reference === 'string')
          body = body.replaceAll(line.reference, '<reference>');
      }
      const headers: Answer['headers'] = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (perConnection.has(name) || (answer.status === 204 && documentOnly.has(name))) continue;
        headers[name] = withoutHandoffNonce(value);
      }
      return { status: answer.status, headers, body };
    }

    function requestLine(lines: readonly Record<string, unknown>[]) {
      const line = lines.find((one) => one.msg === 'request completed');
      if (line === undefined) return undefined;
      assert.equal(typeof line.reqId, 'string');
      assert.equal(typeof line.responseTime, 'number');
      return without(line, ['time', 'reqId', 'responseTime']);
    }

    async function throughBoth(one: Case, cookie: string | undefined) {
      const route = await logged(() => sendCase(portOf(routesOnly), one, cookie));
      const deferredBefore = withFastPaths.deferred();
      const fast = await logged(() => sendCase(fastPort(), one, cookie));
      return { route, fast, answeredFast: withFastPaths.deferred() === deferredBefore };
    }

    for (const one of cases) {
      test(one.name, async () => {
        const cookie = one.cookie?.();
        // Twice: the first route answer remembers a session for the fast path.
        for (let round = 0; round < 2; round += 1) {
          const { route, fast, answeredFast } = await throughBoth(one, cookie);
          assert.equal(route.result.status, one.status, route.result.body);
          assert.deepEqual(
            comparable(fast.result, fast.lines),
            comparable(route.result, route.lines),
          );
          const expectedFast =
            one.fast === 'remembered' ? gw.gateway.sessionCache.enabled : one.fast;
          assert.equal(answeredFast, expectedFast, 'answered by the fast path');
          // Both wrote the same request line, unless it was an allowed answer's (sampled).
          const routeLine = requestLine(route.lines);
          assert.ok(routeLine !== undefined);
          assert.equal((routeLine.req as { remoteAddress?: string }).remoteAddress, variant.client);
          const fastLine = requestLine(fast.lines);
          if (!(answeredFast && one.status < 300)) assert.deepEqual(fastLine, routeLine);
          // And the same failure line, but for its reference.
          const failure = (lines: readonly Record<string, unknown>[]) =>
            lines
              .filter((line) => typeof line.reference === 'string')
              .map((line) => without(line, ['time', 'reqId', 'reference']));
          assert.deepEqual(failure(fast.lines), failure(route.lines));
        }
      });
    }

    test('a locked user and an ended session are refused by both, after being let through', async () => {
      for (const [user, end] of [
        [
          'locked',
          async () => {
            const record = await gw.storage.users.findByUserId('locked');
            await gw.storage.users.setEnabled(record?.id ?? 0, false, Date.now());
          },
        ],
        [
          'ended',
          async () => {
            const id = (cookies.get('ended') ?? '').split('=')[1] ?? '';
            await gw.storage.sessions.delete(sessionHash(id));
          },
        ],
      ] as const) {
        const one: Case = {
          name: user,
          path: '/_sso/auth',
          headers: { ...checked, 'x-forwarded-uri': '/docs' },
          fast: false,
          status: 401,
        };
        const cookie = cookies.get(user);
        const allowed = await throughBoth(one, cookie);
        assert.equal(allowed.fast.result.status, 204);
        assert.equal(allowed.route.result.status, 204);
        await end();
        const refused = await throughBoth(one, cookie);
        assert.equal(refused.route.result.status, 401, user);
        assert.deepEqual(
          comparable(refused.fast.result, refused.fast.lines),
          comparable(refused.route.result, refused.route.lines),
        );
        // Once the session or its user changed, the fast path asks the route.
        assert.equal(refused.answeredFast, false, user);
      }
    });

    test(`allowed fast answers write the route's request line, one in ${routineLineEvery}`, async (t) => {
      if (!gw.gateway.sessionCache.enabled) {
        t.skip('sessions are not remembered on this backend');
        return;
      }
      const one: Case = {
        name: 'allowed',
        path: '/_sso/auth',
        headers: { ...checked, 'x-forwarded-uri': '/docs' },
        fast: true,
        status: 204,
      };
      const cookie = cookies.get('dana');
      const route = await logged(() => sendCase(portOf(routesOnly), one, cookie));
      const routeLine = requestLine(route.lines);
      const fast = await logged(async () => {
        for (let sent = 0; sent < routineLineEvery; sent += 1) {
          await sendCase(fastPort(), one, cookie);
        }
      });
      const lines = fast.lines.filter((line) => line.msg === 'request completed');
      assert.equal(lines.length, 1);
      assert.deepEqual(requestLine(lines), routeLine);
    });
  });
}

/** A handoff's browser nonce and its hash are random, one per answer. */
function withoutHandoffNonce<T>(value: T): T {
  const masked = (text: string) =>
    text.replace(/(ssogate_handoff=)[^;]+/, '$1<nonce>').replace(/([?&]browser=)[^&]+/, '$1<hash>');
  if (typeof value === 'string') return masked(value) as T;
  if (Array.isArray(value))
    return value.map((one: unknown) => (typeof one === 'string' ? masked(one) : one)) as T;
  return value;
}
