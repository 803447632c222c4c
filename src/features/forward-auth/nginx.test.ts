import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { freePort } from '../../test-support/free-port.js';
import type { RunningNginx } from '../../test-support/nginx.js';
import { forwardAuthConf, nginxSkip, startNginx } from '../../test-support/nginx.js';
import type { EchoUpstream, Seen } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';

const skip = nginxSkip;

describe('nginx auth_request against /_sso/auth', { skip }, () => {
  let app: EchoUpstream;
  let gw: TestGateway;
  let nginx: RunningNginx;
  let url: string;

  before(async () => {
    app = await startEchoUpstream();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // Users reach the gateway through nginx, on the application's host.
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: {
        SSOGATE_PUBLIC_URL: url,
        SSOGATE_ACCESS_RULES:
          '[{"path": "/admin", "admins": true}, {"path": "/legacy/admin", "admins": true}]',
      },
    });
    nginx = await startNginx(
      (dir) => forwardAuthConf(dir, port, gw.url, app.url),
      `${url}/_sso/healthz`,
    );
  });
  after(async () => {
    await nginx.stop();
    await gw.close();
    await app.close();
  });

  test('an unsigned page load is sent to sign in, and reaches the app with its identity after', async () => {
    const first = await fetch(`${url}/app/page?a=1&b=2`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(first.status, 302);
    const location = new URL(first.headers.get('location') ?? '');
    assert.equal(location.origin, url);
    assert.equal(location.searchParams.get('return_to'), '/app/page?a=1&b=2');
    const api = await fetch(`${url}/app/data`, { headers: { accept: 'application/json' } });
    assert.equal(api.status, 401);
    assert.equal(app.seen.length, 0);

    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const landed = await browser.open(`${url}/app/page?a=1&b=2`);
    assert.equal(landed.url, `${url}/app/page?a=1&b=2`);
    assert.equal(landed.status, 200);
    const seen = JSON.parse(landed.body) as Seen;
    assert.equal(seen.headers['x-auth-request-user'], 'alice');
    assert.equal(seen.headers['x-auth-request-email'], 'alice@example.test');
    assert.equal(seen.headers['x-auth-request-preferred-username'], 'Alice Liddell');

    // A copy of the identity header sent by the client does not get through.
    const cookie = [...browser.cookies(url)].map(([name, value]) => `${name}=${value}`).join('; ');
    const forged = await rawGet(`${url}/app/forged`, [
      'Cookie',
      cookie,
      'X-Auth-Request-User',
      'root',
      'X_Auth_Request_User',
      'root',
    ]);
    const forgedSeen = JSON.parse(forged.body) as Seen;
    assert.equal(forgedSeen.headers['x-auth-request-user'], 'alice');
    assert.ok(!forgedSeen.rawHeaders.some((name) => /^x_auth/i.test(name)));

    // An access rule's 403 is passed on by nginx.
    const admin = await fetch(`${url}/admin/`, { headers: { cookie } });
    assert.equal(admin.status, 403);
    const log = await readFile(join(nginx.dir, 'error.log'), 'utf8');
    assert.doesNotMatch(log, /\[(emerg|crit)\]/);
  });

  test('a path the client names in a header of its own is never the one judged', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    assert.equal((await browser.open(`${url}/app/page`)).status, 200);
    const cookie = [...browser.cookies(url)].map(([name, value]) => `${name}=${value}`).join('; ');
    const before = app.seen.length;
    // nginx passes the client's headers into auth_request. With the check of
    // docs/proxy.md, which sets X-Forwarded-Uri and clears X-Original-URI,
    // the client's X-Original-URI is never read: /admin is judged as /admin.
    const documented = await rawGet(`${url}/admin/`, [
      'Cookie',
      cookie,
      'X-Original-URI',
      '/public',
    ]);
    assert.equal(documented.status, 403);
    // A check that sets only X-Original-URI meets the client's X-Forwarded-Uri:
    // refused with 400 forwarded_uri_conflict, which nginx answers as a 500.
    const legacy = await rawGet(`${url}/legacy/admin/`, [
      'Cookie',
      cookie,
      'X-Forwarded-Uri',
      '/legacy/public',
    ]);
    assert.equal(legacy.status, 500);
    assert.equal(app.seen.length, before);
    assert.ok(gw.logLines.some((line) => line.includes('forwarded_uri_conflict')));
    const allowed = await rawGet(`${url}/legacy/page`, ['Cookie', cookie]);
    assert.equal(allowed.status, 200);
  });
});

/** A GET with exactly these headers, as a client that adds its own would send it. */
function rawGet(url: string, headers: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { headers: ['Host', new URL(url).host, ...headers] },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
