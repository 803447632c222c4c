import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { caddySkip, startCaddy } from '../../test-support/caddy.js';
import { proxyDocSnippet } from '../../test-support/proxy-doc.js';
import type { RunningProxy } from '../../test-support/proxy-process.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import {
  defaultEntryWithoutEmail,
  signInAtExample,
  startTestGateway,
} from '../../test-support/gateway-fixture.js';
import { freePort } from '../../test-support/free-port.js';
import type { EchoUpstream, Seen } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';

/**
 * The Caddyfile of docs/proxy.md, read from the page itself so the page and
 * the test cannot drift apart, with its site address and ports replaced by
 * this test's.
 */
async function documentedCaddyfile(site: string, gateway: string, app: string): Promise<string> {
  return (await proxyDocSnippet('### Caddy', 'caddy'))
    .replaceAll('app.corp.example', site)
    .replaceAll('127.0.0.1:8080', new URL(gateway).host)
    .replaceAll('127.0.0.1:3000', new URL(app).host);
}

describe('Caddy forward_auth with the documented Caddyfile', { skip: caddySkip }, () => {
  let app: EchoUpstream;
  let gw: TestGateway;
  let caddy: RunningProxy;
  let url: string;

  before(async () => {
    app = await startEchoUpstream();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    gw = await startTestGateway({
      // This entry's mapping gives no e-mail address: the header must then be absent.
      entries: defaultEntryWithoutEmail,
      env: { SSOGATE_PUBLIC_URL: url },
    });
    caddy = await startCaddy(
      await documentedCaddyfile(url, gw.url, app.url),
      `${url}/_sso/healthz`,
    );
  });
  after(async () => {
    await caddy.stop();
    await gw.close();
    await app.close();
  });

  test('a page load is sent to sign in, then reaches the app with the identity it has', async () => {
    const first = await fetch(`${url}/app/page?a=1`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(first.status, 302);
    assert.equal(app.seen.length, 0);

    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const landed = await browser.open(`${url}/app/page?a=1`);
    assert.equal(landed.url, `${url}/app/page?a=1`);
    assert.equal(landed.status, 200);
    const seen = JSON.parse(landed.body) as Seen;
    assert.equal(seen.headers['x-auth-request-user'], 'alice');
    // Caddy 2.6 writes an unreplaced placeholder for a header the check did
    // not answer with; the documented snippet removes such copies.
    assert.equal(seen.headers['x-auth-request-email'], undefined);
    assert.ok(
      !Object.values(seen.headers).some((value) => String(value).includes('{http.')),
      'no Caddy placeholder reaches the application',
    );
  });

  test('a client copy of an identity header never reaches the app', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    assert.equal((await browser.open(`${url}/app/page`)).status, 200);
    const cookie = [...browser.cookies(url)].map(([name, value]) => `${name}=${value}`).join('; ');
    const forged = await fetch(`${url}/app/forged`, {
      headers: {
        cookie,
        'x-auth-request-user': 'root',
        'x-auth-request-email': 'root@corp.example',
      },
    });
    assert.equal(forged.status, 200);
    const seen = (await forged.json()) as Seen;
    assert.equal(seen.headers['x-auth-request-user'], 'alice');
    assert.equal(seen.headers['x-auth-request-email'], undefined);
  });
});
