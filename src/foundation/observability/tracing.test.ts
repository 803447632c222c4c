import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import type { EchoUpstream } from '../../features/reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../../features/reverse-proxy/test-support/upstream-fixture.js';
import type { OtlpReceiver, ReceivedSpan } from './test-support/otlp-receiver.js';
import { startOtlpReceiver } from './test-support/otlp-receiver.js';

const traceparent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

function parsed(header: unknown): { traceId: string; parentId: string } {
  const match = traceparent.exec(String(header));
  assert.ok(match, `a traceparent header: ${String(header)}`);
  return { traceId: match[1] ?? '', parentId: match[2] ?? '' };
}

function only(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  assert.equal(found.length, 1, `one ${name} span: ${found.length}`);
  return found[0] as ReceivedSpan;
}

/**
 * Traces exported over OTLP/HTTP to a receiver on loopback, after real
 * sign-ins and a proxied request: one trace per sign-in holding its start,
 * its callback and each outbound call, the traceparent the provider and
 * the upstream received, and the log's reference joined to the trace.
 */
describe('tracing with an OTLP endpoint', () => {
  let receiver: OtlpReceiver;
  let upstream: EchoUpstream;
  let gw: TestGateway;
  before(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, SSOGATE_UPSTREAM: upstream.url },
    });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
    await receiver.close();
  });

  test('a sign-in is one trace, and the provider and the upstream get its traceparent', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    gw.example.requests.length = 0;
    const page = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/page`);
    assert.equal(page.url, `${gw.url}/page`);
    const tokenCall = gw.example.requests.find(({ path }) => path.endsWith('/token'));
    assert.ok(tokenCall);

    gw.example.failNext('token', { status: 500, body: 'boom' });
    const failed = await browser.open(`${gw.url}/_sso/login/example-get?return_to=/page`);
    assert.equal(failed.status, 502);
    // Its callback's span ends after its audit event is written, which the
    // browser's page does not wait for: without waiting here, the flush
    // below could come first and that span never be exported.
    await waitForAuditEvent(gw.storage.audit, { kind: 'sign_in', outcome: 'failure' });
    await delay(25);

    const cookie = [...browser.cookies(gw.url)].map(([name, value]) => `${name}=${value}`);
    const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const proxied = await fetch(`${gw.url}/traced`, {
      headers: { cookie: cookie.join('; '), traceparent: `00-${clientTrace}-${clientSpan}-01` },
    });
    assert.equal(proxied.status, 200);
    const seen = upstream.seen.find(({ url }) => url === '/traced');
    assert.ok(seen);

    // Closing flushes the spans still batched.
    await gw.gateway.telemetry.close();
    const tokenHeader = parsed(tokenCall.headers.traceparent);
    await receiver.waitForSpan(
      (span) => span.name === 'sign_in.callback' && span.traceId === tokenHeader.traceId,
    );
    assert.ok(receiver.posts.every(({ path }) => path === '/v1/traces'));
    const { spans } = receiver;

    // The successful sign-in: its start and callback in one trace, under one parent.
    const trace = spans.filter((span) => span.traceId === tokenHeader.traceId);
    const start = only(trace, 'sign_in.start');
    const callback = only(trace, 'sign_in.callback');
    assert.equal(start.parentSpanId, callback.parentSpanId);
    assert.equal(start.attributes['ssogate.entry'], 'example-get');
    const tokenStep = only(trace, 'sign_in.token');
    const userinfoStep = only(trace, 'sign_in.userinfo');
    const provision = only(trace, 'sign_in.provision');
    for (const child of [tokenStep, userinfoStep, provision]) {
      assert.equal(child.parentSpanId, callback.spanId, child.name);
    }
    // Each outbound call is a client span under its step, named in the traceparent it sent.
    const tokenClient = trace.find((span) => span.parentSpanId === tokenStep.spanId);
    assert.ok(tokenClient);
    assert.equal(tokenClient.spanId, tokenHeader.parentId);
    assert.equal(tokenClient.kind, 3); // CLIENT
    assert.ok(trace.some((span) => span.parentSpanId === userinfoStep.spanId));

    // The failed sign-in: a trace of its own, whose id is in the log line with its reference.
    const line = gw.logLines
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.code === 'token_request_failed');
    assert.ok(line, 'the failure is logged');
    assert.equal(typeof line.traceId, 'string');
    assert.notEqual(line.traceId, tokenHeader.traceId);
    const failedTrace = spans.filter((span) => span.traceId === line.traceId);
    const failedCallback = only(failedTrace, 'sign_in.callback');
    assert.equal(failedCallback.attributes['ssogate.reference'], line.reference);
    assert.equal(failedCallback.attributes['ssogate.error_code'], 'token_request_failed');
    assert.equal(failedCallback.status.code, 2); // ERROR
    only(failedTrace, 'sign_in.start');
    only(failedTrace, 'sign_in.token');

    // The proxied request: a child of the client's traceparent, and the upstream's parent.
    const upstreamHeader = parsed(seen.headers.traceparent);
    assert.equal(upstreamHeader.traceId, clientTrace);
    const proxySpan = spans.find((span) => span.spanId === upstreamHeader.parentId);
    assert.ok(proxySpan, 'the span the upstream is told of was exported');
    assert.equal(proxySpan.name, 'proxy');
    assert.equal(proxySpan.parentSpanId, clientSpan);
    assert.equal(proxySpan.attributes['http.response.status_code'], 200);
    assert.equal(
      seen.rawHeaders.filter((name) => name.toLowerCase() === 'traceparent').length,
      1,
      "the client's own traceparent is replaced, not repeated",
    );
  });
});
