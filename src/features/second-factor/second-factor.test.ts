import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import {
  signInAtExample,
  startTestGateway,
  storedApiToken,
} from '../../test-support/gateway-fixture.js';
import { TestBrowser } from '../../test-support/browser.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { parseExposition, sample } from '../../foundation/observability/test-support/exposition.js';
import { base32Decode, totpCode } from './totp.js';

/** A hidden field's value in a page. */
function field(body: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];
  assert.ok(value !== undefined, `the page has a ${name} field`);
  return value;
}

function secretOf(body: string): Uint8Array {
  const text = /id="factor-secret">([A-Z2-7]+)</.exec(body)?.[1];
  assert.ok(text !== undefined, 'the enrolment page shows the key');
  const secret = base32Decode(text);
  assert.ok(secret !== undefined);
  return secret;
}

const minutes = 60_000;

describe('a second factor asked by an access rule', () => {
  let gw: TestGateway;
  let upstream: EchoUpstream;
  // The test's clock: codes are computed for it, and step-up waits are skipped by moving it.
  let now = Date.UTC(2026, 10, 29, 12, 0, 0);
  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      usernames: ['alice', 'bob', 'carol', 'dave', 'erin'],
      clock: () => now,
      env: {
        SSOGATE_METRICS_TOKEN: 'second-factor-metrics-token-0123456789',
        SSOGATE_UPSTREAM: upstream.url,
        SSOGATE_ACCESS_RULES: JSON.stringify([
          {
            path: '/pay',
            users: ['alice', 'bob', 'carol', 'dave', 'erin'],
            factor: 2,
            within: '15m',
          },
          { path: '/ops', users: ['alice', 'bob', 'carol', 'dave'], factor: 2 },
        ]),
      },
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });

  /** Signs `username` in and enrols an authenticator on first need; its key and recovery codes. */
  async function enrolled(
    browser: TestBrowser,
    username: string,
  ): Promise<{ secret: Uint8Array; recovery: string[] }> {
    await signInAtExample(browser, gw.example.url, username);
    const asked = await browser.open(`${gw.url}/pay/x?y=1`);
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    assert.equal(asked.status, 200);
    const secret = secretOf(asked.body);
    const form = {
      csrf: field(asked.body, 'csrf'),
      return_to: field(asked.body, 'return_to'),
      enrolment: field(asked.body, 'enrolment'),
      name: 'Phone',
    };
    assert.equal(form.return_to, '/pay/x?y=1');
    const wrong = await browser.submit(`${gw.url}/_sso/factor/enrol`, {
      ...form,
      code: '000000' === totpCode(secret, now) ? '111111' : '000000',
    });
    assert.equal(wrong.status, 401);
    const saved = await browser.submit(`${gw.url}/_sso/factor/enrol`, {
      ...form,
      code: totpCode(secret, now),
    });
    assert.equal(saved.status, 200);
    const recovery = [
      ...saved.body.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g),
    ].map((match) => match[1] ?? '');
    assert.equal(recovery.length, 10);
    return { secret, recovery };
  }

  /** Posts a code (or a recovery code) on the factor page; the response after redirects. */
  async function verify(browser: TestBrowser, fields: Record<string, string>, returnTo = '/pay/x') {
    const page = await browser.open(
      `${gw.url}/_sso/factor?return_to=${encodeURIComponent(returnTo)}`,
    );
    assert.equal(page.status, 200);
    return browser.submit(`${gw.url}/_sso/factor`, {
      csrf: field(page.body, 'csrf'),
      return_to: field(page.body, 'return_to'),
      ...fields,
    });
  }

  test('enrol on first need, then pass; a replayed code is refused; step-up after within', async () => {
    const browser = gw.browser();
    const counted = async (action: string, outcome: string) => {
      const text = (await gw.gateway.telemetry.metrics?.registry.metrics()) ?? '';
      return (
        sample(parseExposition(text), 'ssogate_second_factors_total', { action, outcome }) ?? 0
      );
    };
    const enrolledBefore = await counted('enrol', 'success');
    const { secret } = await enrolled(browser, 'alice');
    assert.equal(await counted('enrol', 'success'), enrolledBefore + 1);
    const passed = await browser.open(`${gw.url}/pay/x?y=1`);
    assert.equal(passed.status, 200);
    assert.equal(new URL(passed.url).pathname, '/pay/x');
    assert.equal((await browser.open(`${gw.url}/ops/x`)).status, 200);

    // The enrolment's code was used: the same code is refused for the rest of its window.
    const refusedBefore = await counted('verify', 'second_factor_invalid');
    const replayed = await verify(browser, { code: totpCode(secret, now) });
    assert.equal(replayed.status, 401);
    assert.equal(await counted('verify', 'second_factor_invalid'), refusedBefore + 1);

    // Past `within`, /pay asks again; /ops, without one, does not.
    now += 16 * minutes;
    const again = await browser.open(`${gw.url}/pay/x`);
    assert.equal(new URL(again.url).pathname, '/_sso/factor');
    assert.match(again.body, /name="code"/);
    const api = await browser.open(`${gw.url}/pay/x`, { accept: 'application/json' });
    assert.equal(api.status, 401);
    assert.match(api.body, /"second_factor_required"/);
    assert.equal((await browser.open(`${gw.url}/ops/x`)).status, 200);
    const stepped = await verify(browser, { code: totpCode(secret, now) });
    assert.equal(stepped.status, 200);
    assert.equal(new URL(stepped.url).pathname, '/pay/x');

    // Forward-auth judges the same rule: 204 now, 401 or a redirect to the factor page after within.
    const forwarded = {
      'x-forwarded-host': new URL(gw.url).host,
      'x-forwarded-uri': '/pay/x',
      'x-forwarded-proto': 'http',
    };
    const cookie = [...browser.cookies(gw.url)]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    const check = async (path: string, accept = '*/*') =>
      fetch(`${gw.url}${path}`, { headers: { ...forwarded, cookie, accept }, redirect: 'manual' });
    assert.equal((await check('/_sso/auth')).status, 204);
    now += 16 * minutes;
    const refused = await check('/_sso/auth');
    assert.equal(refused.status, 401);
    assert.match(await refused.text(), /"second_factor_required"/);
    const sent = await check('/_sso/auth/redirect', 'text/html');
    assert.equal(sent.status, 302);
    assert.equal(sent.headers.get('location'), `${gw.url}/_sso/factor?return_to=%2Fpay%2Fx`);

    // Removing the last factor needs a recent one; with it, the list is empty.
    const remove = async () => {
      const list = await browser.open(`${gw.url}/_sso/factors`);
      assert.equal(list.status, 200);
      return browser.submit(`${gw.url}/_sso/factors/remove`, {
        csrf: field(list.body, 'csrf'),
        return_to: '/_sso/factors',
        factor: field(list.body, 'factor'),
      });
    };
    const early = await remove();
    assert.equal(early.status, 403);
    assert.match(early.body, /second_factor_not_recent/);
    // The code asked first comes back to the list (a reserved path, as no other return_to may be).
    const given = await verify(browser, { code: totpCode(secret, now) }, '/_sso/factors');
    assert.equal(given.status, 200);
    assert.equal(new URL(given.url).pathname, '/_sso/factors');
    const removed = await remove();
    assert.equal(removed.status, 200);
    assert.doesNotMatch(removed.body, /name="factor"/);
  });

  test('a recovery code is good once', async () => {
    const browser = gw.browser();
    const { recovery } = await enrolled(browser, 'bob');
    now += 16 * minutes;
    const code = recovery[0] ?? '';
    const used = await verify(browser, { recovery: code });
    assert.equal(used.status, 200);
    assert.equal(new URL(used.url).pathname, '/pay/x');
    now += 16 * minutes;
    assert.equal((await verify(browser, { recovery: code })).status, 401);
    assert.equal((await verify(browser, { recovery: recovery[1] ?? '' })).status, 200);
  });

  test('wrong codes are limited; a form of another session or without its token is refused', async () => {
    const browser = gw.browser();
    const { secret } = await enrolled(browser, 'carol');
    now += 16 * minutes;
    // Five wrong codes are free (the enrolment's success cleared its one), then
    // the user waits, even with the right code (the clock stands still).
    for (let attempt = 0; attempt < 5; attempt += 1)
      assert.equal((await verify(browser, { code: '000000' })).status, 401);
    const limited = await verify(browser, { code: totpCode(secret, now) });
    assert.equal(limited.status, 429);
    assert.match(limited.body, /rate_limited/);

    const forged = await browser.submit(`${gw.url}/_sso/factor`, {
      csrf: 'forged',
      code: totpCode(secret, now),
    });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /csrf_failed/);

    // Going to the page after it does not skip it.
    const skipped = await browser.open(`${gw.url}/pay/x`);
    assert.equal(new URL(skipped.url).pathname, '/_sso/factor');
  });

  test('adding an authenticator after an old sign-in: a fresh sign-in, a code, then the enrolment', async () => {
    const browser = gw.browser();
    const { secret } = await enrolled(browser, 'erin');
    now += 11 * minutes;
    // The sign-in is older than ten minutes: signed in again (silently), the
    // new session holds no factor, so a code comes first, then the enrolment.
    const asked = await browser.open(`${gw.url}/_sso/factor/enrol?return_to=%2F_sso%2Ffactors`);
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    assert.equal(field(asked.body, 'return_to'), '/_sso/factor/enrol?return_to=%2F_sso%2Ffactors');
    const given = await browser.submit(`${gw.url}/_sso/factor`, {
      csrf: field(asked.body, 'csrf'),
      return_to: field(asked.body, 'return_to'),
      code: totpCode(secret, now),
    });
    assert.equal(given.status, 200);
    assert.equal(new URL(given.url).pathname, '/_sso/factor/enrol');
    assert.equal(field(given.body, 'return_to'), '/_sso/factors');
    assert.match(given.body, /id="factor-secret"/);
  });

  test("an administrator's reset removes the user's factors and ends the user's sessions", async () => {
    const browser = gw.browser();
    await enrolled(browser, 'dave');
    assert.equal((await browser.open(`${gw.url}/pay/x`)).status, 200);
    const user = await gw.storage.users.findByUserId('dave');
    assert.ok(user !== undefined);
    const token = await storedApiToken(gw, 'factor-reset');
    const reset = await fetch(`${gw.url}/_sso/api/users/${String(user.id)}/second-factors/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(reset.status, 200);
    const answer = (await reset.json()) as { factorsRemoved: number; sessionsEnded: number };
    assert.equal(answer.factorsRemoved, 1);
    assert.ok(answer.sessionsEnded >= 1);
    assert.deepEqual(await gw.storage.secondFactors.list(user.id), []);
    // Signed in again (silently, at the example server), the page enrols anew.
    const again = await browser.open(`${gw.url}/pay/x`);
    assert.equal(new URL(again.url).pathname, '/_sso/factor');
    assert.match(again.body, /id="factor-secret"/);
  });
});

/**
 * One sign-in for several hosts (docs/design.md#one-sign-in-many-hosts): the
 * second factor is given on the auth host, reaches the host's session it
 * was asked for, and travels with the next handoff; a host's session made
 * before it holds none.
 */
describe('a second factor on many hosts', () => {
  let wiki: EchoUpstream;
  let git: EchoUpstream;
  let gw: TestGateway;
  let port = 0;
  const now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const at = (host: string, path: string) => `http://${host}.localhost:${String(port)}${path}`;
  let browser: TestBrowser | undefined;

  before(async () => {
    wiki = await startEchoUpstream();
    git = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      clock: () => now,
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${String(listening)}`,
          SSOGATE_UPSTREAM: `wiki.localhost:${String(listening)}=${wiki.url},git.localhost:${String(listening)}=${git.url}`,
          SSOGATE_ACCESS_RULES: JSON.stringify([
            { path: '/', host: 'wiki.localhost', users: ['alice'], factor: 2 },
            { path: '/', host: 'git.localhost', users: ['alice'], factor: 2 },
          ]),
        };
      },
    });
  });
  after(async () => {
    await browser?.close();
    await gw.close();
    await wiki.close();
    await git.close();
  });

  test("another host's session holds no factor until one is given; the next handoff carries it", async () => {
    browser = new TestBrowser({ connectTo: '127.0.0.1' });
    await signInAtExample(browser, gw.example.url);
    const asked = await browser.open(at('wiki', '/page?x=1'));
    assert.equal(new URL(asked.url).host, `sso.localhost:${String(port)}`);
    assert.equal(new URL(asked.url).pathname, '/_sso/factor');
    // wiki's own session was made by the handoff, without a factor: it does not pass.
    assert.ok(browser.cookies(at('wiki', '/')).has('ssogate_session'));
    // The page's form continues to wiki through the handoff: browsers apply
    // CSP form-action to a post's redirects, so the policy must allow wiki.
    const formAction = /form-action ([^;]*)/.exec(
      asked.headers.get('content-security-policy') ?? '',
    );
    assert.ok(
      formAction?.[1]?.split(' ').includes(at('wiki', '').replace(/\/$/, '')),
      formAction?.[1],
    );
    const secret = secretOf(asked.body);
    const saved = await browser.submit(at('sso', '/_sso/factor/enrol'), {
      csrf: field(asked.body, 'csrf'),
      return_to: field(asked.body, 'return_to'),
      enrolment: field(asked.body, 'enrolment'),
      name: 'Phone',
      code: totpCode(secret, now),
    });
    assert.equal(saved.status, 200);
    const onward = /<a href="([^"]+)">/.exec(
      saved.body.slice(saved.body.indexOf('recovery-codes')),
    )?.[1];
    assert.ok(onward !== undefined);
    const back = await browser.open(at('sso', onward.replaceAll('&amp;', '&')));
    assert.equal(back.status, 200, back.body);
    assert.equal(back.url, at('wiki', '/page?x=1'));
    // git's session, made by a handoff after the factor, holds it from the start.
    const git = await browser.open(at('git', '/repo'));
    assert.equal(git.status, 200, git.body);
    assert.equal(git.url, at('git', '/repo'));
    assert.ok(!git.hops.some(({ url }) => url.includes('/_sso/factor')));
  });
});
