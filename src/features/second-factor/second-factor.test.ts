import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import type { TestBrowser } from '../../test-support/browser.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
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
      usernames: ['alice', 'bob', 'carol'],
      clock: () => now,
      env: {
        SSOGATE_UPSTREAM: upstream.url,
        SSOGATE_ACCESS_RULES: JSON.stringify([
          { path: '/pay', users: ['alice', 'bob', 'carol'], factor: 2, within: '15m' },
          { path: '/ops', users: ['alice', 'bob', 'carol'], factor: 2 },
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
    const { secret } = await enrolled(browser, 'alice');
    const passed = await browser.open(`${gw.url}/pay/x?y=1`);
    assert.equal(passed.status, 200);
    assert.equal(new URL(passed.url).pathname, '/pay/x');
    assert.equal((await browser.open(`${gw.url}/ops/x`)).status, 200);

    // The enrolment's code was used: the same code is refused for the rest of its window.
    const replayed = await verify(browser, { code: totpCode(secret, now) });
    assert.equal(replayed.status, 401);

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
});
