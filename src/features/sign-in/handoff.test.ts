import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import { parseExposition, sample } from '../../foundation/observability/test-support/exposition.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { signOut } from '../../test-support/sign-out.js';

/**
 * One sign-in for several hosts on one gateway (docs/design.md#one-sign-in-many-hosts):
 * sso.localhost is the auth host, wiki.localhost and git.localhost are
 * proxied by the gateway; every name reaches the same loopback listener.
 */
describe('the handoff of a sign-in to another host', () => {
  let wiki: EchoUpstream;
  let git: EchoUpstream;
  let gw: TestGateway;
  let port = 0;
  let clockOffset = 0;
  const browsers: TestBrowser[] = [];
  const at = (host: string, path: string) => `http://${host}.localhost:${port}${path}`;
  const authorizations = () =>
    gw.example.requests.filter(({ path }) => path.endsWith('/authorize')).length;

  async function signedInBrowser(): Promise<TestBrowser> {
    const browser = new TestBrowser({ connectTo: '127.0.0.1' });
    browsers.push(browser);
    await signInAtExample(browser, gw.example.url);
    return browser;
  }

  /** Walks the redirects from `url` up to the finish step, and returns its URL unvisited. */
  async function finishUrlFor(browser: TestBrowser, url: string): Promise<string> {
    let current = url;
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await browser.exchange('GET', current);
      await response.arrayBuffer();
      const location = response.headers.get('location');
      assert.ok(location !== null, `${current} answered ${response.status}, not a redirect`);
      current = new URL(location, current).href;
      if (new URL(current).pathname === '/_sso/handoff/finish') return current;
    }
    throw new Error('no handoff finish within 10 redirects');
  }

  /** Opens a finish URL 61 seconds on, and checks it is refused as expired. */
  async function assertExpiredLater(browser: TestBrowser, finish: string): Promise<void> {
    const lastBefore = (await gw.storage.audit.list({ kind: 'handoff', limit: 1 }))[0]?.id ?? 0;
    clockOffset += 61_000;
    try {
      const late = await browser.open(finish);
      assert.equal(late.status, 400);
      assert.match(late.body, /handoff_expired/);
    } finally {
      clockOffset -= 61_000;
    }
    // The refusal's page goes out before its event is written: awaited here,
    // so no later test finds it among its own.
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'handoff', outcome: 'failure' },
      ({ id, code }) => id > lastBefore && code === 'handoff_expired',
    );
  }

  before(async () => {
    wiki = await startEchoUpstream();
    git = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      clock: () => Date.now() + clockOffset,
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${listening}`,
          SSOGATE_UPSTREAM: `wiki.localhost:${listening}=${wiki.url},git.localhost:${listening}=${git.url}`,
          SSOGATE_METRICS_TOKEN: randomBytes(24).toString('base64url'),
        };
      },
    });
  });

  after(async () => {
    for (const browser of browsers) await browser.close();
    await gw.close();
    await wiki.close();
    await git.close();
  });

  test('one sign-in at the provider, then each host by a handoff, landing on the page asked for', async () => {
    const browser = await signedInBrowser();
    const before = authorizations();
    const first = await browser.open(at('wiki', '/page?x=1'));
    assert.equal(first.status, 200, first.body);
    assert.equal(first.url, at('wiki', '/page?x=1'));
    assert.equal((JSON.parse(first.body) as { url: string }).url, '/page?x=1');
    assert.equal(authorizations(), before + 1);

    const second = await browser.open(at('git', '/repo'));
    assert.equal(second.status, 200, second.body);
    assert.equal(second.url, at('git', '/repo'));
    assert.equal(authorizations(), before + 1, 'no second sign-in at the provider');
    assert.ok(second.hops.some(({ url }) => url.startsWith(at('sso', '/_sso/handoff?'))));
    // Each host has a session of its own; the session id never leaves its host.
    const wikiSession = browser.cookies(at('wiki', '/')).get('ssogate_session');
    const gitSession = browser.cookies(at('git', '/')).get('ssogate_session');
    assert.ok(wikiSession !== undefined && gitSession !== undefined);
    assert.notEqual(wikiSession, gitSession);
    assert.ok(!first.body.includes('ssogate_session'), 'the application never sees the cookie');

    // Signing out on one host ends the sign-in on every host.
    await signOut(browser, at('git', ''));
    for (const host of ['wiki', 'git']) {
      const refused = await browser.open(at(host, '/page'), { accept: 'application/json' });
      assert.equal(refused.status, 401, `${host}: ${refused.body}`);
    }
    const console = await browser.open(at('sso', '/_sso/me'), { accept: 'application/json' });
    assert.equal(console.status, 401);
  });

  test("each host's session cookie serves its own host only; replayed with another Host it is none", async () => {
    const browser = await signedInBrowser();
    assert.equal((await browser.open(at('wiki', '/mine'))).status, 200);
    const wikiSession = browser.cookies(at('wiki', '/')).get('ssogate_session');
    const signInSession = browser.cookies(at('sso', '/')).get('ssogate_session');
    assert.ok(wikiSession !== undefined && signInSession !== undefined);
    const json = { accept: 'application/json' };
    for (const [cookie, host, path] of [
      [wikiSession, 'git', '/repo'],
      [wikiSession, 'sso', '/_sso/me'],
      [signInSession, 'wiki', '/page'],
    ] as const) {
      const replaying = new TestBrowser({ connectTo: '127.0.0.1' });
      browsers.push(replaying);
      replaying.setCookie(at(host, ''), 'ssogate_session', cookie);
      const answer = await replaying.open(at(host, path), json);
      assert.equal(answer.status, 401, `${host}${path}: ${answer.body}`);
    }
    // Each is still good where it was issued.
    assert.equal((await browser.open(at('wiki', '/mine'), json)).status, 200);
    assert.equal((await browser.open(at('sso', '/_sso/me'), json)).status, 200);
  });

  test("the chooser and an entry's sign-in start on an application host hand off to the auth host and come back", async () => {
    for (const path of [
      '/_sso/login?return_to=/after',
      '/_sso/login/example-get?return_to=/after',
    ]) {
      const browser = await signedInBrowser();
      const before = authorizations();
      const answer = await browser.open(at('wiki', path));
      assert.equal(answer.status, 200, `${path}: ${answer.body}`);
      assert.equal(answer.url, at('wiki', '/after'), path);
      assert.equal(authorizations(), before + 1, `${path}: signed in at the auth host`);
      assert.ok(answer.hops.some(({ url }) => url.startsWith(at('sso', '/_sso/handoff?'))));
      // Signed in already: straight back, no second sign-in.
      const again = await browser.open(at('git', path));
      assert.equal(again.url, at('git', '/after'));
      assert.equal(authorizations(), before + 1);
    }
  });

  test('the console, the admin API and the local sign-in answer on the auth host only', async () => {
    const browser = new TestBrowser({ connectTo: '127.0.0.1' });
    browsers.push(browser);
    for (const path of [
      '/_sso/admin',
      '/_sso/admin/entries?tab=1',
      '/_sso/api/entries',
      '/_sso/api/openapi.json',
      '/_sso/handoff?host=git.localhost',
    ]) {
      // A page load is sent to the same path on the auth host.
      const answer = await browser.open(at('wiki', path), { maxHops: 0 });
      assert.equal(answer.status, 302, path);
      assert.equal(answer.headers.get('location'), at('sso', path));
    }
    const deleted = await browser.exchange('DELETE', at('wiki', '/_sso/api/entries/x'));
    assert.equal(deleted.status, 404);
    await deleted.arrayBuffer();
    const post = await browser.submit(at('git', '/_sso/login/local'), { username: 'a' });
    assert.equal(post.status, 404);
    const onAuthHost = await browser.open(at('sso', '/_sso/api/openapi.json'), { maxHops: 0 });
    assert.equal(onAuthHost.status, 200);
  });

  test("a proxy's sign-in URL (ingress-nginx auth-signin) starts the handoff for its own host only", async () => {
    const browser = await signedInBrowser();
    const started = await browser.open(
      at('git', `/_sso/handoff/start?rd=${encodeURIComponent(at('git', '/issues?q=1'))}`),
    );
    assert.equal(started.status, 200, started.body);
    assert.equal(started.url, at('git', '/issues?q=1'));
    const elsewhere = await browser.open(
      at('git', `/_sso/handoff/start?rd=${encodeURIComponent('http://evil.example/')}`),
    );
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.body, /handoff_host_not_listed/);
  });

  test('a code is good once: replayed, it is refused', async () => {
    const browser = await signedInBrowser();
    const finish = await finishUrlFor(browser, at('wiki', '/once'));
    assert.equal((await browser.open(finish)).status, 200);
    const replayed = await browser.open(finish);
    assert.equal(replayed.status, 400);
    assert.match(replayed.body, /handoff_replayed/);
  });

  test('a sign-out at the auth host between the two steps is honoured: the finish makes no session', async () => {
    const browser = await signedInBrowser();
    const finish = await finishUrlFor(browser, at('wiki', '/between'));
    // The auth host's step remembered the sign-in; its sign-out forgets it.
    await signOut(browser, at('sso', ''));
    const answer = await browser.exchange('GET', finish);
    await answer.arrayBuffer();
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get('location'), '/between');
    assert.equal(browser.cookies(at('wiki', '/')).get('ssogate_session'), undefined);
    const page = await browser.open(at('wiki', '/between'), { accept: 'application/json' });
    assert.equal(page.status, 401, page.body);
  });

  test('a code older than 60 seconds is refused', async () => {
    const browser = await signedInBrowser();
    const finish = await finishUrlFor(browser, at('wiki', '/late'));
    await assertExpiredLater(browser, finish);
  });

  test('a code past its 60 seconds whose record is already removed is refused as expired', async () => {
    const browser = await signedInBrowser();
    const finish = await finishUrlFor(browser, at('wiki', '/swept'));
    // Removed as the expiry sweep (or Redis, at the record's expiry) removes it.
    const code = new URL(finish).searchParams.get('code') ?? '';
    assert.ok(await gw.storage.pendingSignIns.consume(sha256Base64url(`handoff:${code}`)));
    await assertExpiredLater(browser, finish);
    // Within its 60 seconds, a code whose record is gone was used: replayed.
    const used = await finishUrlFor(browser, at('wiki', '/used'));
    assert.equal((await browser.open(used)).status, 200);
    assert.match((await browser.open(used)).body, /handoff_replayed/);
  });

  test('handoffs are audited and counted: started, finished, and refused with their code', async () => {
    const handoffs = async (step: string, outcome: string) => {
      const text = (await gw.gateway.telemetry.metrics?.registry.metrics()) ?? '';
      return sample(parseExposition(text), 'ssogate_handoffs_total', { step, outcome }) ?? 0;
    };
    const counted = async () => [
      await handoffs('start', 'success'),
      await handoffs('finish', 'success'),
      await handoffs('finish', 'handoff_wrong_browser'),
    ];
    const before = await counted();
    const newest = async () => gw.storage.audit.list({ kind: 'handoff', limit: 20 });
    const lastBefore = (await newest())[0]?.id ?? 0;
    const browser = await signedInBrowser();
    assert.equal((await browser.open(at('wiki', '/audited'))).status, 200);
    const finish = await finishUrlFor(browser, at('git', '/audited'));
    const other = new TestBrowser({ connectTo: '127.0.0.1' });
    browsers.push(other);
    assert.match((await other.open(finish)).body, /handoff_wrong_browser/);

    assert.deepEqual(
      (await counted()).map((count, at) => count - (before[at] ?? 0)),
      [2, 1, 1],
    );
    // The refusal's page goes out before its event is written.
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'handoff', outcome: 'failure' },
      ({ id }) => id > lastBefore,
    );
    const events = (await newest()).filter(({ id }) => id > lastBefore);
    const seen = events
      .map(({ outcome, code, userId, detail }) => [
        outcome,
        code,
        userId,
        detail?.action,
        detail?.host,
      ])
      .reverse();
    assert.deepEqual(seen, [
      ['success', null, 'alice', 'start', `wiki.localhost:${port}`],
      ['success', null, 'alice', 'finish', `wiki.localhost:${port}`],
      ['success', null, 'alice', 'start', `git.localhost:${port}`],
      ['failure', 'handoff_wrong_browser', null, 'finish', `git.localhost:${port}`],
    ]);
    for (const { detail, reference } of events) {
      assert.ok(!JSON.stringify(detail).includes(new URL(finish).searchParams.get('code') ?? ''));
      if (reference !== null) assert.match(reference, /^[0-9A-Z]{10}$/);
    }
  });

  test('a code made for one host is refused on another', async () => {
    const browser = await signedInBrowser();
    const finish = await finishUrlFor(browser, at('wiki', '/here'));
    const elsewhere = await browser.open(finish.replace('//wiki.', '//git.'));
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.body, /handoff_wrong_host/);
    assert.equal(browser.cookies(at('git', '/')).get('ssogate_session'), undefined);
  });

  test('a handoff for a host not listed is refused, when asked for and when it comes back', async () => {
    const browser = await signedInBrowser();
    const browserHash = randomBytes(32).toString('base64url');
    const asked = await browser.open(
      at('sso', `/_sso/handoff?host=evil.localhost:${port}&return_to=/&browser=${browserHash}`),
    );
    assert.equal(asked.status, 400);
    assert.match(asked.body, /handoff_host_not_listed/);
    // A record for a host that is no longer listed (one written before the
    // configuration changed) finds the same refusal on its way back.
    const now = Date.now();
    const code = `${randomBytes(32).toString('base64url')}.${(now + 60_000).toString(36)}`;
    await gw.storage.pendingSignIns.save({
      stateHash: sha256Base64url(`handoff:${code}`),
      entryId: '',
      returnTo: '/',
      bindingHash: browserHash,
      redirectUri: '',
      codeVerifier: null,
      createdAt: now,
      expiresAt: now + 60_000,
      handoff: { host: `evil.localhost:${port}`, signInHash: 'none', userId: null },
    });
    const back = await browser.open(at('evil', `/_sso/handoff/finish?code=${code}`));
    assert.equal(back.status, 400);
    assert.match(back.body, /handoff_host_not_listed/);
  });

  test('a code carried to another browser is refused, with its own handoff cookie or none', async () => {
    const browser = await signedInBrowser();
    const other = await signedInBrowser();
    const finish = await finishUrlFor(browser, at('wiki', '/mine'));
    const without = await other.open(finish);
    assert.equal(without.status, 400);
    assert.match(without.body, /handoff_wrong_browser/);

    const second = await finishUrlFor(browser, at('wiki', '/mine'));
    // The other browser starts a handoff of its own: a handoff cookie, but another nonce.
    await other.exchange('GET', at('wiki', '/theirs'));
    assert.ok(other.cookies(at('wiki', '/')).has('ssogate_handoff'));
    const withOwn = await other.open(second);
    assert.equal(withOwn.status, 400);
    assert.match(withOwn.body, /handoff_wrong_browser/);
    assert.equal(other.cookies(at('wiki', '/')).get('ssogate_session'), undefined);
  });
});
