import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { EchoUpstream } from './features/reverse-proxy/test-support/upstream-fixture.js';
import {
  signedInCookie,
  startEchoUpstream,
} from './features/reverse-proxy/test-support/upstream-fixture.js';
import { TestBrowser } from './test-support/browser.js';
import { freePort } from './test-support/free-port.js';
import type { TestGateway } from './test-support/gateway-fixture.js';
import { startTestGateway } from './test-support/gateway-fixture.js';
import { renderChart } from './test-support/helm-template.js';
import {
  ingressAuthOf,
  ingressNginxConf,
  ingressNginxServer,
  setMiscSkip,
} from './test-support/ingress-nginx.js';
import type { RunningNginx } from './test-support/nginx.js';
import { nginxSkip, startNginx } from './test-support/nginx.js';

// Compiled to build/src/, so the repository is two levels up.
const chart = fileURLToPath(new URL('../../deploy/helm/ssogate/', import.meta.url));
const host = 'app.corp.test';

/**
 * The chart's example Ingress (exampleIngress.enabled) as ingress-nginx
 * renders it, in real nginx in front of a gateway with an access rule:
 * ingress-nginx's check names the path in X-Original-URL only, and passes on
 * whatever URI header the client adds.
 */
describe(
  'deploy/helm: the example Ingress, as ingress-nginx renders it, with an access rule',
  { skip: nginxSkip || setMiscSkip },
  () => {
    let gw: TestGateway;
    let app: EchoUpstream;
    let nginx: RunningNginx;
    let at: (path: string) => string;
    const browser = new TestBrowser({ connectTo: '127.0.0.1' });

    before(async () => {
      const port = await freePort();
      at = (path) => `http://${host}:${port}${path}`;
      const manifests = (await renderChart(
        chart,
        {
          secretKey: Buffer.alloc(32, 1).toString('base64'),
          exampleIngress: { enabled: true, host },
        },
        { name: 'sso', namespace: 'identity' },
      )) as { kind: string; metadata: { annotations?: Record<string, string> } }[];
      const protectedApp = manifests.find(
        ({ kind, metadata }) => kind === 'Ingress' && metadata.annotations !== undefined,
      );
      assert.ok(protectedApp?.metadata.annotations !== undefined);
      const auth = ingressAuthOf(protectedApp.metadata.annotations);
      app = await startEchoUpstream();
      gw = await startTestGateway({
        env: {
          SSOGATE_PUBLIC_URL: at(''),
          SSOGATE_ACCESS_RULES: JSON.stringify([{ path: '/admin', admins: true }]),
        },
      });
      nginx = await startNginx(
        (dir) =>
          ingressNginxConf(dir, port, [
            ingressNginxServer({ port, host, auth, gateway: gw.url, app: app.url }),
          ]),
        `http://127.0.0.1:${port}/healthz`,
      );
      const cookie = await signedInCookie(gw.gateway, 'bob');
      const [name = '', value = ''] = cookie.split('=');
      browser.setCookie(at('/'), name, value);
    });

    after(async () => {
      await browser.close();
      await nginx.stop();
      await gw.close();
      await app.close();
    });

    const status = async (path: string, headers: Record<string, string> = {}) => {
      const answer = await browser.exchange(
        'GET',
        at(path),
        undefined,
        'application/json',
        headers,
      );
      await answer.arrayBuffer();
      return answer.status;
    };

    test('an ordinary request passes with the identity; a ruled path is refused', async () => {
      assert.equal(await status('/reports?year=2024'), 200);
      const seen = app.seen.at(-1);
      assert.equal(seen?.url, '/reports?year=2024');
      assert.equal(seen.headers['x-auth-request-user'], 'bob');
      assert.equal(await status('/admin/users'), 403);
    });

    test('a URI header the client adds never makes a ruled path pass', async () => {
      const before = app.seen.length;
      for (const headers of [
        { 'x-forwarded-uri': '/public' },
        { 'x-original-uri': '/' },
        { 'x-forwarded-uri': '/admin', 'x-original-uri': '/admin' },
      ])
        assert.notEqual(await status('/admin', headers), 200, JSON.stringify(headers));
      assert.equal(app.seen.length, before, 'the application never served /admin');
    });

    test('a page load without a session is sent to sign in on the same host', async () => {
      const stranger = new TestBrowser({ connectTo: '127.0.0.1' });
      try {
        const page = await stranger.exchange('GET', at('/reports?year=2024'));
        await page.arrayBuffer();
        assert.equal(page.status, 302);
        const location = new URL(page.headers.get('location') ?? '');
        assert.equal(location.host, new URL(at('/')).host);
        assert.equal(location.pathname, '/_sso/login');
        assert.equal(location.searchParams.get('return_to'), '/reports?year=2024');
      } finally {
        await stranger.close();
      }
    });
  },
);
