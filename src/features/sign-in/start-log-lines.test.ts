import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { routineLineEvery } from '../../foundation/logging/routine-lines.js';

interface LoggedRequest {
  readonly url: string;
  readonly status: number;
}

/** The request lines written since `from`, as the URL and status each names. */
function requestLines(gw: TestGateway, from: number): LoggedRequest[] {
  return gw.logLines
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request completed')
    .map((line) => ({
      url: (line.req as { url: string }).url,
      status: (line.res as { statusCode: number }).statusCode,
    }));
}

/** `count` sign-ins started, each by a browser of its own, not followed to the provider. */
async function startSignIns(gw: TestGateway, count: number): Promise<void> {
  for (let started = 0; started < count; started += 1) {
    const start = await gw
      .browser()
      .exchange('GET', `${gw.url}/_sso/login/example-get?return_to=/landing`);
    assert.equal(start.status, 302);
  }
}

/**
 * A sign-in's start sent on to its provider is routine: its callback's line
 * says how the sign-in ended, so the start writes its line one time in
 * routineLineEvery (docs/configuration.md#logs); a refused start, and every
 * callback, always writes one.
 */
describe("a sign-in's start and its log line", () => {
  let sampled: TestGateway;
  let all: TestGateway;
  const env = { SSOGATE_SIGN_INS_PER_MINUTE: '1000' };
  before(async () => {
    const entries = ({ getStyle }: { getStyle: Record<string, unknown> }) => [getStyle];
    sampled = await startTestGateway({ entries, env });
    all = await startTestGateway({ entries, env: { ...env, SSOGATE_REQUEST_LOG: 'all' } });
  });
  after(async () => {
    await sampled.close();
    await all.close();
  });

  test(`sampled (the default): one start in ${routineLineEvery} writes its line`, async () => {
    const from = sampled.logLines.length;
    await startSignIns(sampled, routineLineEvery * 2);
    const starts = requestLines(sampled, from).filter((line) =>
      line.url.startsWith('/_sso/login/'),
    );
    assert.deepEqual(
      starts.map((line) => line.status),
      [302, 302],
    );
  });

  test('sampled: the callback of every sign-in writes its line, with the audit event', async () => {
    const browser = sampled.browser();
    await signInAtExample(browser, sampled.example.url);
    for (let round = 0; round < 3; round += 1) {
      const from = sampled.logLines.length;
      const page = await browser.open(`${sampled.url}/_sso/login/example-get?return_to=/landing`);
      assert.equal(page.url, `${sampled.url}/landing`);
      const callbacks = sampled.logLines
        .slice(from)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => (line.req as { url?: string } | undefined)?.url?.includes('/callback/'));
      assert.equal(callbacks.length, 1);
      assert.equal((callbacks[0]?.audit as { outcome?: string } | undefined)?.outcome, 'success');
    }
  });

  test('sampled: a start refused writes its line every time', async () => {
    const from = sampled.logLines.length;
    for (let tried = 0; tried < 3; tried += 1) {
      const refused = await sampled.browser().exchange('GET', `${sampled.url}/_sso/login/nowhere`);
      assert.equal(refused.status, 404);
    }
    assert.deepEqual(
      requestLines(sampled, from).map((line) => [line.url, line.status]),
      Array.from({ length: 3 }, () => ['/_sso/login/nowhere', 404]),
    );
  });

  test('SSOGATE_REQUEST_LOG=all: every start writes its line', async () => {
    const from = all.logLines.length;
    await startSignIns(all, 5);
    const starts = requestLines(all, from).filter((line) => line.url.startsWith('/_sso/login/'));
    assert.equal(starts.length, 5);
  });
});
