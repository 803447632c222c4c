import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RunningApache } from '../../test-support/apache.js';
import { apachePreamble, modAuthOpenidcSkip, startApache } from '../../test-support/apache.js';
import { TestBrowser } from '../../test-support/browser.js';
import { freePort } from '../../test-support/free-port.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { EchoUpstream, Seen } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import {
  clientSecret,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

/**
 * The Apache configuration of docs/openid-provider.md, read from the page
 * itself so that the page and the test cannot drift apart, with its hosts,
 * secret and passphrase replaced by this test's. The gateway here is plain
 * HTTP on loopback (mod_auth_openidc warns, and goes on).
 */
async function documentedSite(gateway: string, site: string, app: string): Promise<string> {
  const page = await readFile(
    new URL('../../../../docs/openid-provider.md', import.meta.url),
    'utf8',
  );
  const section = page.slice(page.indexOf('### Apache (mod_auth_openidc)'));
  const snippet = /```apache\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(snippet !== undefined, 'docs/openid-provider.md has an Apache snippet');
  return snippet
    .replaceAll('https://sso.example.com', gateway)
    .replaceAll('https://app.example.com', site)
    .replaceAll('http://127.0.0.1:3000', app)
    .replace('ssgc_...', clientSecret)
    .replace('a-long-random-string-of-your-own', randomBytes(24).toString('base64url'));
}

/** The requests the gateway answered, as `METHOD /path STATUS`, from its log lines. */
function requestsAt(gw: TestGateway): string[] {
  return gw.logLines
    .map(
      (line) =>
        JSON.parse(line) as { req?: { method: string; url: string }; res?: { statusCode: number } },
    )
    .filter((line) => line.req !== undefined && line.res !== undefined)
    .map((line) => `${line.req?.method} ${line.req?.url.split('?')[0]} ${line.res?.statusCode}`);
}

/**
 * Apache httpd with mod_auth_openidc (Debian's packages) as the relying
 * party: it protects /protected/, proxied to an application that echoes
 * what it receives, and signs users in through the gateway, whose default
 * entry's server answers in `errcode` envelopes. Nothing here speaks for
 * Apache: it discovers the provider, redeems the code with
 * client_secret_basic, checks the id_token against the published keys and
 * calls userinfo on its own.
 */
describe('OpenID Provider: Apache with mod_auth_openidc', { skip: modAuthOpenidcSkip }, () => {
  let gw: TestGateway;
  let app: EchoUpstream;
  let apache: RunningApache;
  let site: string;

  before(async () => {
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    app = await startEchoUpstream();
    gw = await startProviderGateway();
    await registerClient(gw, 'apache', {
      redirectUris: [`${site}/protected/redirect_uri`],
      postLogoutRedirectUris: [`${site}/signed-out`],
    });
    const modules = ['authz_user', 'headers', 'proxy', 'proxy_http', 'auth_openidc'];
    const documented = await documentedSite(gw.url, site, app.url);
    apache = await startApache(
      (dir) => `${apachePreamble(dir, port, modules)}
${documented}
# Where a logout ends: a page of the application that needs nobody signed in.
<Location /signed-out>
  Require all granted
  ProxyPass ${app.url}/signed-out
</Location>
`,
      `${site}/`,
    );
  });
  after(async () => {
    await apache.stop();
    await gw.close();
    await app.close();
  });

  test('a protected page signs in through the gateway and shows the user to the application', async () => {
    const browser = new TestBrowser({ navigation: true });
    await signInAtExample(browser, gw.example.url);
    const page = await browser.open(`${site}/protected/hello?x=1`, { maxHops: 20 });
    assert.equal(page.status, 200, `${page.body}\n${await apache.errorLog()}`);
    // The whole sign-in was redirects: Apache to the authorization endpoint, the
    // gateway to its entry's server and back, the code to Apache, Apache to the page.
    assert.deepEqual(
      page.hops.map((hop) => new URL(hop.url).pathname),
      [
        '/protected/hello',
        '/_sso/oidc/authorize',
        '/json/authorize',
        '/_sso/callback/corp',
        '/_sso/oidc/authorize',
        '/protected/redirect_uri',
        '/protected/hello',
      ],
    );
    const seen = JSON.parse(page.body) as Seen;
    assert.equal(seen.url, '/hello?x=1');
    assert.equal(seen.headers['x-remote-user'], 'alice');
    assert.equal(seen.headers.oidc_claim_email, 'alice@example.test');
    assert.equal(seen.headers.oidc_claim_name, 'Alice Example');
    assert.equal(seen.headers.oidc_claim_iss, gw.url);
    assert.equal(seen.headers.oidc_claim_aud, 'apache');
    assert.equal(seen.headers.oidc_claim_ssogate_entry, 'corp');
    // Apache redeemed the code, fetched the keys to check the id_token, and asked userinfo.
    const calls = requestsAt(gw);
    for (const call of [
      'POST /_sso/oidc/token 200',
      'GET /_sso/oidc/jwks 200',
      'GET /_sso/oidc/userinfo 200',
    ])
      assert.ok(calls.includes(call), `${call} in ${calls.join(', ')}`);

    // Apache's own session now: the next page asks the gateway nothing.
    const again = await browser.open(`${site}/protected/again`);
    assert.deepEqual([again.status, again.hops.length], [200, 1]);
    assert.equal(requestsAt(gw).length, calls.length);
    await browser.close();

    // A script's request without a session is answered 401, not sent to sign in.
    const script = await fetch(`${site}/protected/data`, { redirect: 'manual' });
    assert.equal(script.status, 401);
  });

  test("Apache's logout ends the gateway's session through the end-session endpoint", async () => {
    const browser = new TestBrowser({ navigation: true });
    await signInAtExample(browser, gw.example.url, 'bob');
    assert.equal((await browser.open(`${site}/protected/`, { maxHops: 20 })).status, 200);

    // mod_auth_openidc's logout: its redirect URI with `logout=` the page to end on.
    const signedOut = `${site}/signed-out`;
    const logout = await browser.open(
      `${site}/protected/redirect_uri?logout=${encodeURIComponent(signedOut)}`,
    );
    const [, atGateway, end] = logout.hops;
    assert.ok(atGateway !== undefined && end !== undefined, JSON.stringify(logout.hops));
    const endSession = new URL(atGateway.url);
    assert.equal(`${endSession.origin}${endSession.pathname}`, `${gw.url}/_sso/oidc/logout`);
    assert.equal(endSession.searchParams.get('post_logout_redirect_uri'), signedOut);
    assert.ok(endSession.searchParams.has('id_token_hint'));
    assert.deepEqual([end.url, end.status], [signedOut, 200]);
    // The page after is the application's, seen by nobody signed in.
    const seen = JSON.parse(logout.body) as Seen;
    assert.equal(seen.headers['x-remote-user'], undefined);
    const event = await waitForAuditEvent(gw.storage.audit, { kind: 'sign_out', userId: 'bob' });
    assert.deepEqual(event.detail, { scope: 'here', client: 'apache' });

    // Both sessions are over: Apache sends the browser to the gateway, and the
    // gateway, with no session of its own, to its entry's server again.
    const back = await browser.open(`${site}/protected/`, { maxHops: 20 });
    assert.equal(back.status, 200);
    assert.deepEqual(
      back.hops.slice(0, 3).map((hop) => new URL(hop.url).pathname),
      ['/protected/', '/_sso/oidc/authorize', '/json/authorize'],
    );
    await browser.close();
  });
});
