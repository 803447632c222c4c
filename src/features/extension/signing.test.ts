import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importExampleModule } from './example-extension.js';
import {
  answerSigningText,
  replayWindowMs,
  requestSigningText,
  sign,
  signatureMatches,
  timestampFresh,
  unixSeconds,
} from './signing.js';

/** The example extension's own implementation (examples/extension-xml/signing.mjs). */
interface ExampleSigning {
  verifyRequest(
    secret: string,
    request: {
      method: string;
      path: string;
      headers: Record<string, string>;
      body: string;
    },
    seenNonces: Map<string, number>,
    now: number,
  ): string | undefined;
  answerHeaders(
    secret: string,
    answer: { status: number; nonce: string; body: string },
    now: number,
  ): Record<string, string>;
}

const secret = 'signing-test-secret-0123456789';
const now = Date.parse('2026-03-01T10:00:00Z');

describe('extension signatures', () => {
  let example: ExampleSigning;
  before(async () => {
    example = (await importExampleModule('signing.mjs')) as ExampleSigning;
  });

  test('a fixed vector: the signing text and its HMAC', () => {
    const text = requestSigningText({
      method: 'post',
      path: '/ext/callback',
      timestamp: '1772359200',
      nonce: 'n0nce-0123456789ab',
      body: '{}',
    });
    assert.equal(
      text,
      'SSOGATE-HMAC-SHA256-REQUEST\nPOST\n/ext/callback\n1772359200\nn0nce-0123456789ab\n' +
        '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
    );
    // The same vector is in docs/extension.md, for implementers to check against.
    assert.equal(
      sign(secret, text),
      'v1=9c94322698f9b65bf0d8ac42e7e906c0e4c48ee73fdb370e18eec137edc6ba5a',
    );
    assert.ok(signatureMatches(secret, text, sign(secret, text)));
    assert.ok(!signatureMatches(secret, `${text} `, sign(secret, text)));
    assert.ok(!signatureMatches(secret, text, 'v1=00'));
  });

  test("the example extension accepts the gateway's request, once", () => {
    const body = '{"entryId":"acme"}';
    const timestamp = unixSeconds(now);
    const nonce = 'nonce-of-this-request-1';
    const path = '/authorize-url';
    const signature = sign(
      secret,
      requestSigningText({ method: 'POST', path, timestamp, nonce, body }),
    );
    const headers = {
      'x-ssogate-timestamp': timestamp,
      'x-ssogate-nonce': nonce,
      'x-ssogate-signature': signature,
    };
    const seen = new Map<string, number>();
    const request = { method: 'POST', path, headers, body };
    assert.equal(example.verifyRequest(secret, request, seen, now), undefined);
    assert.match(example.verifyRequest(secret, request, seen, now) ?? '', /replayed/);
    assert.match(
      example.verifyRequest(secret, { ...request, body: '{"entryId":"other"}' }, new Map(), now) ??
        '',
      /signature/,
    );
    assert.match(
      example.verifyRequest(secret, request, new Map(), now + replayWindowMs + 1000) ?? '',
      /timestamp/,
    );
  });

  test("the gateway accepts the example extension's answer, for its own nonce only", () => {
    const body = '{"url":"https://acme.example/sso/authorize"}';
    const headers = example.answerHeaders(secret, { status: 200, nonce: 'n-1', body }, now);
    const timestamp = headers['x-ssogate-timestamp'] ?? '';
    const signature = headers['x-ssogate-signature'] ?? '';
    const signed = (nonce: string) => answerSigningText({ status: 200, timestamp, nonce, body });
    assert.ok(signatureMatches(secret, signed('n-1'), signature));
    assert.ok(!signatureMatches(secret, signed('n-2'), signature));
    assert.ok(timestampFresh(timestamp, now));
    assert.ok(!timestampFresh(timestamp, now + replayWindowMs + 1000));
    assert.ok(!timestampFresh('12abc', now));
  });
});
