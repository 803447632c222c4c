import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { parseExposition, sample } from '../../foundation/observability/test-support/exposition.js';
import type { TestServer } from '../../foundation/outbound/test-support/http-fixture.js';
import { startTestServer } from '../../foundation/outbound/test-support/http-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, storedApiToken } from '../../test-support/gateway-fixture.js';
import { signOut } from '../../test-support/sign-out.js';
import { testBackendName } from '../../test-support/test-backend.js';
import { waitUntil } from '../../test-support/wait-until.js';
import { endGrantsOfOverSignIns } from './sign-in-grants.js';
import {
  codeFlow,
  discoverProvider,
  registerClient,
  secondGateway,
  startProviderGateway,
} from './test-support/provider-fixture.js';

const logoutEvent = 'http://schemas.openid.net/event/backchannel-logout';

/** Polls until `holds` is true, for at most `ms`: deliveries run off the request path. */
async function eventually(holds: () => boolean, ms = 5000): Promise<void> {
  await waitUntil(holds, { message: 'a back-channel delivery', timeoutMs: ms });
}

/**
 * OpenID Connect Back-Channel Logout 1.0, from the client's side: its
 * back-channel endpoint a real HTTP server on loopback, each logout token
 * checked with jose against the provider's published key set; and the
 * grant's tokens, which end with the gateway sign-in they came from.
 */
describe('OpenID Provider: back-channel logout, and grants that end with the sign-in', () => {
  let gw: TestGateway;
  let dir: string;
  let clock = Date.now();
  let now = (): number => clock;
  let receiver: TestServer;
  let failing: TestServer;
  let hanging: TestServer;
  let apiToken: string;
  before(async () => {
    // On SQLite, a file a second gateway can open too.
    dir = await mkdtemp(join(tmpdir(), 'ssogate-bcl-'));
    const env: Record<string, string> = {
      // Metrics on, to read the count of attempts.
      SSOGATE_METRICS_TOKEN: randomBytes(24).toString('base64url'),
      ...(testBackendName().startsWith('sqlite')
        ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}` }
        : {}),
    };
    now = () => clock;
    gw = await startProviderGateway({ env, clock: () => now() });
    receiver = await startTestServer((_request, response) => response.writeHead(200).end());
    failing = await startTestServer((_request, response) => response.writeHead(500).end());
    hanging = await startTestServer(() => {
      // Never answers: the attempt's deadline ends it.
    });
    await registerClient(gw, 'app', {
      refreshTokens: true,
      backchannelLogoutUri: `${receiver.url}/backchannel`,
    });
    await registerClient(gw, 'quiet', { refreshTokens: true });
    await registerClient(gw, 'failing', {
      refreshTokens: true,
      backchannelLogoutUri: `${failing.url}/backchannel`,
    });
    await registerClient(gw, 'hanging', {
      refreshTokens: true,
      backchannelLogoutUri: `${hanging.url}/backchannel`,
    });
    apiToken = await storedApiToken(gw, 'admin');
  });
  after(async () => {
    await receiver.close();
    await failing.close();
    await hanging.close();
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Signs the browser in through the client; its config, tokens and the sid of its id_token. */
  async function tokensFor(clientId: string, browser: TestBrowser) {
    const config = await discoverProvider(gw.url, clientId);
    const { tokens } = await codeFlow(config, browser);
    const sid = tokens.claims()?.sid;
    assert.equal(typeof sid, 'string', 'the id_token names the sign-in');
    return { config, tokens, sid: sid as string };
  }

  async function signedIn(username = 'alice'): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    return browser;
  }

  const userinfoStatus = async (accessToken: string, at = gw.url) =>
    (
      await fetch(`${at}/_sso/oidc/userinfo`, {
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).status;

  /** The attempts counted with this outcome. */
  const attempts = async (outcome: string) => {
    const text = (await gw.gateway.telemetry.metrics?.registry.metrics()) ?? '';
    return sample(parseExposition(text), 'ssogate_backchannel_logouts_total', { outcome }) ?? 0;
  };

  /** What a client's endpoint received after `from`, each logout token checked as a client must. */
  async function logoutTokens(server: TestServer, from: number) {
    const keys = createRemoteJWKSet(new URL(`${gw.url}/_sso/oidc/jwks`));
    const checked = [];
    for (const received of server.received.slice(from)) {
      assert.equal(received.method, 'POST');
      assert.equal(received.url, '/backchannel');
      assert.equal(received.headers['content-type'], 'application/x-www-form-urlencoded');
      const token = new URLSearchParams(received.body).get('logout_token') ?? '';
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: gw.url,
        typ: 'logout+jwt',
        algorithms: ['RS256'],
        currentDate: new Date(now()),
      });
      assert.deepEqual(payload.events, { [logoutEvent]: {} });
      assert.equal(payload.nonce, undefined, 'a logout token has no nonce (§2.4)');
      assert.equal(typeof payload.jti, 'string');
      assert.ok((payload.exp ?? 0) - (payload.iat ?? 0) <= 120, 'good for two minutes at most');
      assert.equal(protectedHeader.typ, 'logout+jwt');
      checked.push(payload);
    }
    return checked;
  }

  test('a sign-out at the gateway posts a logout token; the grant then ends, with or without a URI', async () => {
    const browser = await signedIn();
    const app = await tokensFor('app', browser);
    const quiet = await tokensFor('quiet', browser);
    assert.equal(app.sid, quiet.sid, 'one sign-in, one sid');
    assert.equal(await userinfoStatus(app.tokens.access_token), 200);
    const discovery = (await (
      await fetch(`${gw.url}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    assert.equal(discovery.backchannel_logout_supported, true);
    assert.equal(discovery.backchannel_logout_session_supported, true);
    assert.equal(discovery.frontchannel_logout_supported, true);
    assert.equal(discovery.frontchannel_logout_session_supported, true);

    const from = receiver.received.length;
    const delivered = await attempts('success');
    assert.equal((await signOut(browser, gw.url)).status, 200);
    await eventually(() => receiver.received.length > from);
    const [logout, ...more] = await logoutTokens(receiver, from);
    assert.deepEqual(more, [], 'one token for the one client with a URI');
    assert.deepEqual([logout?.aud, logout?.sub, logout?.sid], ['app', 'alice', app.sid]);

    for (const ended of [app, quiet]) {
      await assert.rejects(
        client.refreshTokenGrant(ended.config, ended.tokens.refresh_token ?? ''),
        {
          error: 'invalid_grant',
        },
      );
      assert.equal(await userinfoStatus(ended.tokens.access_token), 401);
    }
    await waitForAuditEvent(gw.storage.audit, { kind: 'backchannel_logout' });
    const events = await gw.storage.audit.list({ kind: 'backchannel_logout', limit: 10 });
    assert.deepEqual(
      events.map((event) => [event.outcome, event.userId, event.detail?.client]),
      [['success', 'alice', 'app']],
    );
    assert.equal(await attempts('success'), delivered + 1);
  });

  test('a new sign-in in the same browser ends the grants of the sign-in it replaces, and tells the client', async () => {
    const browser = await signedIn();
    const app = await tokensFor('app', browser);
    assert.equal(await userinfoStatus(app.tokens.access_token), 200);
    const from = receiver.received.length;
    const auditedBefore = (await gw.storage.audit.list({ kind: 'backchannel_logout', limit: 50 }))
      .length;
    // Signed in again at the gateway, the browser's earlier session is replaced.
    const again = await browser.open(`${gw.url}/_sso/login/corp?return_to=/again`);
    assert.equal(again.url, `${gw.url}/again`, again.body);
    await eventually(() => receiver.received.length > from);
    const [logout, ...more] = await logoutTokens(receiver, from);
    assert.deepEqual(more, []);
    assert.deepEqual([logout?.aud, logout?.sub, logout?.sid], ['app', 'alice', app.sid]);
    await assert.rejects(client.refreshTokenGrant(app.config, app.tokens.refresh_token ?? ''), {
      error: 'invalid_grant',
    });
    assert.equal(await userinfoStatus(app.tokens.access_token), 401);
    // Audited once the attempt is over, which may be just after the client has the token.
    const events = await waitUntil(
      async () => {
        const listed = await gw.storage.audit.list({ kind: 'backchannel_logout', limit: 50 });
        return listed.length !== auditedBefore && listed;
      },
      { message: 'the back-channel logout audited', timeoutMs: 5000 },
    );
    assert.equal(events[0]?.detail?.ended, 'sign_in_replaced');
    // The new sign-in's grants are its own, and work.
    const renewed = await tokensFor('app', browser);
    assert.notEqual(renewed.sid, app.sid);
    assert.equal(await userinfoStatus(renewed.tokens.access_token), 200);
    const beforeSignOut = receiver.received.length;
    assert.equal((await signOut(browser, gw.url)).status, 200);
    await eventually(() => receiver.received.length > beforeSignOut);
  });

  test("a pairwise client's logout token names the user by the pairwise sub of its id_token", async () => {
    await registerClient(gw, 'paired', {
      subjectType: 'pairwise',
      backchannelLogoutUri: `${receiver.url}/backchannel`,
    });
    const browser = await signedIn();
    const paired = await tokensFor('paired', browser);
    const sub = paired.tokens.claims()?.sub;
    assert.ok(sub !== undefined && sub !== 'alice', 'a pairwise sub, not the user id');
    const from = receiver.received.length;
    assert.equal((await signOut(browser, gw.url)).status, 200);
    await eventually(() => receiver.received.length > from);
    const [logout] = await logoutTokens(receiver, from);
    assert.deepEqual([logout?.aud, logout?.sub, logout?.sid], ['paired', sub, paired.sid]);
    // The audit trail names the user by the gateway's own id.
    const event = await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'backchannel_logout', limit: 10 },
      (found) => found.detail?.client === 'paired',
    );
    assert.equal(event.userId, 'alice');
    await gw.storage.providerClients.delete('paired');
  });

  test('locking a user, or ending their sessions, through the admin API does the same', async () => {
    const admin = (path: string) =>
      fetch(`${gw.url}/_sso/api/users/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiToken}` },
      });
    for (const [username, action] of [
      ['alice', 'end-sessions'],
      ['bob', 'lock'],
    ] as const) {
      const app = await tokensFor('app', await signedIn(username));
      const user = await gw.storage.users.findByUserId(username);
      const from = receiver.received.length;
      assert.equal((await admin(`${String(user?.id)}/${action}`)).status, 200);
      await eventually(() => receiver.received.length > from);
      const [logout] = await logoutTokens(receiver, from);
      assert.deepEqual([logout?.sub, logout?.sid], [username, app.sid]);
      await assert.rejects(client.refreshTokenGrant(app.config, app.tokens.refresh_token ?? ''), {
        error: 'invalid_grant',
      });
      assert.equal(await userinfoStatus(app.tokens.access_token), 401);
    }
  });

  test('an endpoint that hangs or answers 500 neither slows nor fails the sign-out; 500 is tried again', async () => {
    const browser = await signedIn();
    const stuck = await tokensFor('hanging', browser);
    const refused = await tokensFor('failing', browser);
    const from = failing.received.length;
    const refusedBefore = await attempts('backchannel_logout_refused');
    const started = performance.now();
    assert.equal((await signOut(browser, gw.url)).status, 200);
    const took = performance.now() - started;
    // An attempt waits up to five seconds for an answer; none of it on the sign-out's path.
    assert.ok(took < 2000, `the sign-out took ${String(Math.round(took))} ms`);
    for (const ended of [stuck, refused]) {
      await assert.rejects(
        client.refreshTokenGrant(ended.config, ended.tokens.refresh_token ?? ''),
        {
          error: 'invalid_grant',
        },
      );
      assert.equal(await userinfoStatus(ended.tokens.access_token), 401);
    }
    await eventually(() => failing.received.length >= from + 2, 6000);
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'backchannel_logout', outcome: 'failure', limit: 50 },
      (event) => event.detail?.client === 'failing' && event.detail.attempt === 2,
    );
    const tokens = await logoutTokens(failing, from);
    assert.equal(tokens[0]?.jti, tokens[1]?.jti, 'a retry sends the same token');
    const failures = (
      await gw.storage.audit.list({ kind: 'backchannel_logout', outcome: 'failure', limit: 50 })
    ).filter((event) => event.detail?.client === 'failing');
    assert.deepEqual(failures.map((event) => [event.code, event.detail?.status]).slice(0, 2), [
      ['backchannel_logout_refused', 500],
      ['backchannel_logout_refused', 500],
    ]);
    assert.ok((await attempts('backchannel_logout_refused')) >= refusedBefore + 2);
  });

  test('a sign-in seen over by the sweep ends its grants, and this instance tells the client', async () => {
    const app = await tokensFor('app', await signedIn());
    const from = receiver.received.length;
    // Idle past the gateway's idle time-out, with nobody using the session.
    clock += gw.gateway.config.sessionIdleMs + 1000;
    try {
      assert.equal(await endGrantsOfOverSignIns(gw.gateway), 1);
      await eventually(() => receiver.received.length > from);
      const [logout] = await logoutTokens(receiver, from);
      assert.equal(logout?.sid, app.sid);
      assert.equal(await userinfoStatus(app.tokens.access_token), 401);
      assert.equal(await endGrantsOfOverSignIns(gw.gateway), 0, 'ended once');
    } finally {
      clock = Date.now();
    }
  });

  test('two instances: a grant issued by one, the sign-out at the other, its tokens refused by the first', async () => {
    const other = await secondGateway(gw);
    try {
      const browser = await signedIn();
      const app = await tokensFor('app', browser);
      // The browser's gateway cookies, at the second instance's address.
      for (const [name, value] of browser.cookies(gw.url))
        browser.setCookie(other.url, name, value);
      const from = receiver.received.length;
      assert.equal((await signOut(browser, other.url)).status, 200);
      await assert.rejects(client.refreshTokenGrant(app.config, app.tokens.refresh_token ?? ''), {
        error: 'invalid_grant',
      });
      assert.equal(await userinfoStatus(app.tokens.access_token), 401);
      await eventually(() => receiver.received.length > from);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const tokens = await logoutTokens(receiver, from);
      assert.deepEqual(
        tokens.map((token) => token.sid),
        [app.sid],
        'one logout token, from one instance',
      );
      assert.equal(decodeJwt(app.tokens.id_token ?? '').sid, app.sid);
    } finally {
      await other.close();
    }
  });
});
