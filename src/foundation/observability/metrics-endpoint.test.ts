import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { freePort } from '../../test-support/free-port.js';
import { parseExposition, sample } from './test-support/exposition.js';

const token = 'metrics-token-0123456789';

async function scrapeText(url: string, authorization?: string): Promise<Response> {
  return fetch(`${url}/_sso/metrics`, {
    headers: authorization === undefined ? {} : { authorization },
  });
}

/**
 * /_sso/metrics over real HTTP after real sign-ins against the example
 * server: the counters and histograms move by what happened, and the
 * endpoint answers only with its token.
 */
describe('metrics behind a bearer token', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: { SSOGATE_METRICS_TOKEN: token },
    });
  });
  after(async () => gw.close());

  test('sign-ins that succeed and fail, forward-auth decisions and the cache show in a scrape', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const start = `${gw.url}/_sso/login/example-get?return_to=/x`;
    const ok = await browser.open(start);
    assert.equal(ok.url, `${gw.url}/x`);
    gw.example.failNext('token', { status: 500, body: 'boom' });
    const failed = await browser.open(start);
    assert.equal(failed.status, 502);
    const unknown = await browser.open(`${gw.url}/_sso/callback/no-such-entry?code=c&state=s`);
    assert.equal(unknown.status, 404);

    const cookie = [...browser.cookies(gw.url)].map(([name, value]) => `${name}=${value}`);
    for (let check = 0; check < 3; check += 1) {
      const allowed = await fetch(`${gw.url}/_sso/auth`, {
        headers: { cookie: cookie.join('; ') },
      });
      assert.equal(allowed.status, 204);
    }
    assert.equal((await fetch(`${gw.url}/_sso/auth`)).status, 401);

    const response = await scrapeText(gw.url, `Bearer ${token}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const samples = parseExposition(text);

    assert.equal(sample(samples, 'ssogate_signins_started_total', { entry: 'example-get' }), 2);
    assert.equal(
      sample(samples, 'ssogate_signins_total', { entry: 'example-get', outcome: 'success' }),
      1,
    );
    assert.equal(
      sample(samples, 'ssogate_signins_total', {
        entry: 'example-get',
        outcome: 'token_request_failed',
      }),
      1,
    );
    // An id no entry has is the client's text, never a label value.
    assert.equal(
      sample(samples, 'ssogate_signins_total', { entry: '(none)', outcome: 'entry_unknown' }),
      1,
    );
    assert.doesNotMatch(text, /no-such-entry|alice/);

    const step = { entry: 'example-get', step: 'token' };
    assert.equal(sample(samples, 'ssogate_outbound_step_duration_seconds_count', step), 2);
    assert.equal(
      sample(samples, 'ssogate_outbound_step_duration_seconds_count', {
        entry: 'example-get',
        step: 'userinfo',
      }),
      1,
    );
    const buckets = samples
      .filter(
        (s) =>
          s.name === 'ssogate_outbound_step_duration_seconds_bucket' &&
          s.labels.entry === 'example-get' &&
          s.labels.step === 'token',
      )
      .map((s) => ({ le: s.labels.le ?? '', value: s.value }));
    assert.equal(buckets.at(-1)?.le, '+Inf');
    assert.equal(buckets.at(-1)?.value, 2);
    for (let index = 1; index < buckets.length; index += 1) {
      assert.ok((buckets[index]?.value ?? 0) >= (buckets[index - 1]?.value ?? 0), 'cumulative');
    }
    assert.ok(
      (sample(samples, 'ssogate_outbound_step_duration_seconds_sum', step) ?? 0) > 0,
      'the steps took some time',
    );

    assert.equal(sample(samples, 'ssogate_forward_auth_requests_total', { decision: 'allow' }), 3);
    assert.equal(
      sample(samples, 'ssogate_forward_auth_requests_total', { decision: 'unauthenticated' }),
      1,
    );
    assert.equal(
      sample(samples, 'ssogate_forward_auth_duration_seconds_count', { decision: 'allow' }),
      3,
    );
    const hits = sample(samples, 'ssogate_session_cache_lookups_total', { result: 'hit' }) ?? 0;
    const misses = sample(samples, 'ssogate_session_cache_lookups_total', { result: 'miss' }) ?? 0;
    // The sign-in remembers the session it made: the page it lands on and
    // the three checks are answered from memory, on every backend.
    assert.deepEqual({ hits, misses }, { hits: 4, misses: 0 });
    assert.ok((sample(samples, 'ssogate_active_sessions', {}) ?? 0) >= 1);
    assert.equal(
      sample(samples, 'ssogate_build_info', { version: '0.1.0', node: process.versions.node }),
      1,
    );
    assert.ok(sample(samples, 'process_cpu_user_seconds_total', {}) !== undefined);
  });

  test('refused without the token, and with a wrong one', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `Basic ${token}`,
      token,
    ]) {
      const response = await scrapeText(gw.url, authorization);
      assert.equal(response.status, 401, String(authorization));
      assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="ssogate metrics"');
      assert.doesNotMatch(await response.text(), /ssogate_/);
    }
  });
});

describe('metrics not configured', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => gw.close());

  test('without a token or an address there is no metrics route', async () => {
    const response = await scrapeText(gw.url, `Bearer ${token}`);
    assert.equal(response.status, 404);
    assert.doesNotMatch(await response.text(), /ssogate_/);
    assert.equal(gw.gateway.telemetry.metrics, undefined);
  });
});

describe('metrics on a listen address of their own', () => {
  let gw: TestGateway;
  let metricsUrl: string;
  before(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}`;
    gw = await startTestGateway({ env: { SSOGATE_METRICS_ADDRESS: `127.0.0.1:${port}` } });
  });
  after(async () => gw.close());

  test('served there without a token, and absent from the public listener', async () => {
    const response = await scrapeText(metricsUrl);
    assert.equal(response.status, 200);
    const samples = parseExposition(await response.text());
    assert.equal(
      sample(samples, 'ssogate_build_info', { version: '0.1.0', node: process.versions.node }),
      1,
    );
    assert.equal((await fetch(`${metricsUrl}/metrics`)).status, 200);
    assert.equal((await fetch(`${metricsUrl}/_sso/login`)).status, 404);
    assert.equal((await scrapeText(gw.url)).status, 404);
  });
});

describe('the application-token call as a step', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ wecom }) => [wecom],
      env: { SSOGATE_METRICS_TOKEN: token },
    });
  });
  after(async () => gw.close());

  test('timed as app_token when fetched, and not when the cached token serves', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    for (let signIn = 0; signIn < 2; signIn += 1) {
      const page = await browser.open(`${gw.url}/_sso/login/example-wecom?return_to=/x`);
      assert.equal(page.url, `${gw.url}/x`, page.body.slice(0, 300));
    }
    const samples = parseExposition(await (await scrapeText(gw.url, `Bearer ${token}`)).text());
    const count = (step: string) =>
      sample(samples, 'ssogate_outbound_step_duration_seconds_count', {
        entry: 'example-wecom',
        step,
      });
    assert.equal(count('app_token'), 1, 'the second sign-in used the cached token');
    assert.equal(count('userinfo'), 4, 'two sign-ins, each with getuserinfo and user/get');
    assert.ok(
      (sample(samples, 'ssogate_outbound_step_duration_seconds_sum', {
        entry: 'example-wecom',
        step: 'app_token',
      }) ?? 0) > 0,
    );
  });
});
