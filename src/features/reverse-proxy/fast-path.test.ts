import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { FastPathServer } from '../../test-support/fast-path-server.js';
import { startFastPathServer } from '../../test-support/fast-path-server.js';
import { freePort } from '../../test-support/free-port.js';
import type { EchoUpstream, Seen } from './test-support/upstream-fixture.js';
import { signedInCookie, startEchoUpstream } from './test-support/upstream-fixture.js';

function seenBy(text: string): Seen {
  return JSON.parse(text) as Seen;
}

/**
 * A proxied request whose session is remembered is passed on before the
 * framework (fast-path.ts). These requests are made twice: the first
 * through the gateway, whose route remembers the session, the second
 * through its fast paths on a server of their own, which counts the
 * requests they leave to the route (test-support/fast-path-server.ts);
 * both must give the same answer and send the upstream the same request.
 */
describe('reverse proxy fast path', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let cookie: string;
  let fast: FastPathServer;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway({
      env: {
        SSOGATE_UPSTREAM: JSON.stringify({
          '/': upstream.url,
          '/down': `http://127.0.0.1:${await freePort()}`,
        }),
        SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/admin', users: ['root'] }]),
      },
    });
    cookie = await signedInCookie(gw.gateway, 'dana', { email: 'dana@example.test' });
    fast = await startFastPathServer(gw);
  });
  after(async () => {
    await fast.close();
    await gw.close();
    await upstream.close();
  });

  /** The request twice, through the gateway then its fast paths; `handled`: the route took the second. */
  async function twice(
    path: string,
    init: { method?: string; body?: string; headers?: Record<string, string> } = {},
  ) {
    const send = (base: string) =>
      fetch(`${base}${path}`, {
        ...init,
        headers: { cookie: `${cookie}; app=kept`, 'x-auth-request-user': 'root', ...init.headers },
        redirect: 'manual',
      });
    const first = await send(gw.url);
    const firstText = await first.text();
    const before = fast.deferred();
    const second = await send(fast.url);
    const secondText = await second.text();
    return { first, firstText, second, secondText, handled: fast.deferred() > before };
  }

  const remembered = (): boolean => gw.gateway.sessionCache.enabled;

  test('the second request skips the framework and reaches the upstream the same way', async (t) => {
    if (!remembered()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const { first, firstText, second, secondText, handled } = await twice('/app/page?x=1');
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    // Only the first request was the framework's.
    assert.equal(handled, false);
    const [viaRoute, viaFastPath] = [seenBy(firstText), seenBy(secondText)];
    assert.equal(viaFastPath.url, '/app/page?x=1');
    assert.equal(viaFastPath.headers['x-auth-request-user'], 'dana');
    assert.equal(viaFastPath.headers.cookie, 'app=kept');
    assert.deepEqual(viaFastPath.headers, viaRoute.headers);
  });

  test("the gateway's discovery document is the gateway's, with an upstream at /", async () => {
    const discovery = '/.well-known/openid-configuration';
    const seenBefore = upstream.seen.length;
    const issuerOf = async (response: Response) => {
      assert.equal(response.status, 200);
      return ((await response.json()) as { issuer: string }).issuer;
    };
    const json = { accept: 'application/json' };
    // A relying party's fetch, without a cookie: the fast path leaves it to the route.
    for (const base of [gw.url, fast.url]) {
      assert.equal(await issuerOf(await fetch(`${base}${discovery}`, { headers: json })), gw.url);
      assert.equal(await issuerOf(await fetch(`${base}${discovery}?x=1`)), gw.url);
    }
    // A signed-in browser, remembered or not: still the gateway's.
    const { first, firstText, second, secondText, handled } = await twice(discovery, {
      headers: { accept: 'text/html' },
    });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(handled, true, 'the route answers it, never the proxy');
    assert.equal((JSON.parse(firstText) as { issuer: string }).issuer, gw.url);
    assert.equal(secondText, firstText);
    const unknown = await fetch(`${gw.url}${discovery}`, {
      headers: { cookie: 'ssogate_session=unknown' },
    });
    assert.equal(await issuerOf(unknown), gw.url);
    assert.equal(upstream.seen.length, seenBefore, 'the application was never asked');
  });

  test('identities that HTTP would trim or split reach the upstream apart, either way', async (t) => {
    if (!remembered()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const received = new Map<string, string | undefined>();
    for (const userId of [' alice', 'alice ', '  alice  ', 'x, admin']) {
      const own = await signedInCookie(gw.gateway, userId, { userName: `${userId},` });
      const { firstText, secondText, handled } = await twice('/app/who', {
        headers: { cookie: own },
      });
      const [viaRoute, viaFastPath] = [seenBy(firstText), seenBy(secondText)];
      assert.deepEqual(viaFastPath.headers, viaRoute.headers);
      assert.equal(handled, false);
      // The upstream's parser trimmed the values; they still decode to the user.
      const user = viaFastPath.headers['x-auth-request-user'];
      assert.equal(decodeURIComponent(String(user)), userId);
      const name = String(viaFastPath.headers['x-auth-request-preferred-username']);
      assert.equal(decodeURIComponent(name), `${userId},`);
      assert.doesNotMatch(`${String(user)}${name}`, /,/);
      received.set(String(user), userId);
    }
    assert.equal(received.size, 4);
  });

  test('a body streams through the fast path', async (t) => {
    if (!remembered()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    const body = 'x'.repeat(200_000);
    const { first, firstText, second, secondText } = await twice('/app/upload', {
      method: 'POST',
      body,
    });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(seenBy(secondText).bodyBytes, body.length);
    assert.equal(seenBy(secondText).bodySha256, seenBy(firstText).bodySha256);
  });

  test('an access rule refuses on the fast path too; a path to normalise takes the full route', async () => {
    const denied = await twice('/admin/x', { headers: { accept: 'application/json' } });
    assert.equal(denied.first.status, 403);
    assert.equal(denied.second.status, 403);
    assert.equal(denied.handled, !remembered());
    const odd = await twice('/app/../%61pp/x');
    assert.equal(odd.second.status, 200);
    assert.ok(odd.handled);
    assert.equal(seenBy(odd.secondText).url, '/app/x');
    // With access rules set, a forward-auth check names the path it asks about.
    const sso = await twice('/_sso/auth', { headers: { 'x-forwarded-uri': '/app/x' } });
    assert.equal(sso.second.status, 204);
  });

  test('an upstream that is down gives the same coded 502 either way', async (t) => {
    if (!remembered()) {
      t.skip('sessions are not remembered on this backend');
      return;
    }
    for (const accept of ['text/html', 'application/json']) {
      const { first, firstText, second, secondText } = await twice('/down/page', {
        headers: { accept },
      });
      assert.equal(first.status, 502);
      assert.equal(second.status, 502);
      assert.match(firstText, /upstream_unavailable/);
      assert.match(secondText, /upstream_unavailable/);
      for (const name of ['content-type', 'content-security-policy', 'x-frame-options'])
        assert.equal(second.headers.get(name), first.headers.get(name), name);
    }
  });
});
