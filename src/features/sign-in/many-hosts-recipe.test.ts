import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { proxyDocSnippet } from '../../test-support/proxy-doc.js';
import type { EchoUpstream, Seen } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';

/** The settings of the recipe: each `NAME=value \` line of the block, quotes removed. */
function recipeSettings(block: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [, name = '', value = ''] of block.matchAll(/^(SSOGATE_[A-Z_]+)=(\S+) \\$/gm))
    settings[name] = value.replace(/^'(.*)'$/, '$1');
  return settings;
}

/** One GET to the gateway with a Host header of its own; the status, Location and body. */
function getWithHost(
  url: string,
  host: string,
): Promise<{ status: number; location: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { host, accept: 'text/html' } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, location: response.headers.location, body });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

/**
 * docs/proxy.md "Many hosts": the loopback recipe for three hosts, its
 * settings read from the page and run with free ports in place of 8080,
 * 3001 and 3002 (echo applications in place of python's servers).
 */
describe('docs/proxy.md "Many hosts": three hosts on loopback, as the recipe says', () => {
  let gw: TestGateway;
  let apps: EchoUpstream[];
  let gatewayPort = 0;
  const browser = new TestBrowser({ connectTo: '127.0.0.1' });
  const at = (host: string, path: string) => `http://${host}.localhost:${gatewayPort}${path}`;

  before(async () => {
    const block = await proxyDocSnippet(
      "Three hosts on one machine, with the demo's example server to sign in at",
      'sh',
    );
    apps = [await startEchoUpstream(), await startEchoUpstream()];
    const ports: Record<string, string> = {
      '3001': new URL(apps[0]?.url ?? '').port,
      '3002': new URL(apps[1]?.url ?? '').port,
    };
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      envOfPort: (port) => {
        gatewayPort = port;
        return Object.fromEntries(
          Object.entries(recipeSettings(block)).map(([name, value]) => [
            name,
            value.replace(/\b(8080|3001|3002)\b/g, (found) => ports[found] ?? String(port)),
          ]),
        );
      },
    });
  });
  after(async () => {
    await browser.close();
    await gw.close();
    for (const app of apps) await app.close();
  });

  test('the recipe lists two application hosts with their port', () => {
    assert.deepEqual(gw.gateway.config.hosts.others, [
      `app1.localhost:${gatewayPort}`,
      `app2.localhost:${gatewayPort}`,
    ]);
  });

  test('one sign-in, both applications reached with the identity', async () => {
    await signInAtExample(browser, gw.example.url);
    for (const [name, app] of [
      ['app1', apps[0]],
      ['app2', apps[1]],
    ] as const) {
      const page = await browser.open(at(name, '/page?x=1'));
      assert.equal(page.status, 200, `${name}: ${JSON.stringify(page.hops)}`);
      assert.equal(page.url, at(name, '/page?x=1'));
      const seen = JSON.parse(page.body) as Seen;
      assert.equal(seen.headers['x-auth-request-user'], 'alice');
      assert.equal(app?.seen.at(-1)?.url, '/page?x=1');
    }
    const authorizations = gw.example.requests.filter(({ path }) => path.endsWith('/authorize'));
    assert.equal(authorizations.length, 1, 'the provider was asked once');
  });

  test('a listed host asked on another port is logged once, and served as an unlisted host', async () => {
    const before = apps[0]?.seen.length;
    const misported = `app1.localhost:${gatewayPort + 1}`;
    for (let round = 0; round < 2; round += 1) {
      const answer = await getWithHost(`${gw.url}/page`, misported);
      assert.ok(answer.status < 500, String(answer.status));
    }
    assert.equal(apps[0]?.seen.length, before, 'not the application of app1');
    const warnings = gw.logLines.filter((line) => line.includes('but for its port'));
    assert.equal(warnings.length, 1, 'once per listed host');
    assert.match(warnings[0] ?? '', new RegExp(`app1\\.localhost:${gatewayPort}`));
  });

  test('an unlisted host gets the portal and its sign-in, never an application or the console', async () => {
    const seen = apps.map((app) => app.seen.length);
    const portal = await getWithHost(`${gw.url}/`, `other.localhost:${gatewayPort}`);
    // The portal, which sends a browser without a session to sign in.
    assert.ok([200, 302].includes(portal.status), String(portal.status));
    // The console is the auth host's: a page asked elsewhere is sent there.
    const console = await getWithHost(`${gw.url}/_sso/admin`, `other.localhost:${gatewayPort}`);
    assert.equal(console.status, 302);
    assert.equal(new URL(console.location ?? '').host, new URL(gw.gateway.config.publicUrl).host);
    assert.deepEqual(
      apps.map((app) => app.seen.length),
      seen,
    );
  });
});
