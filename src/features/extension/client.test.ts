import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompiledExtension, ErrorCode } from '../../core/index.js';
import { isSsogateError } from '../../core/index.js';
import type { TestServer } from '../../foundation/outbound/test-support/http-fixture.js';
import { startTestServer } from '../../foundation/outbound/test-support/http-fixture.js';
import { sendOutbound } from '../../foundation/outbound/send-outbound.js';
import { withTransportPolicy } from '../../foundation/outbound/outbound-policy.js';
import { callExtension, maxAnswerBytes } from './client.js';
import { ExtensionAnswerError } from './extension-error.js';
import { authorizeUrlAnswer, callbackAnswer } from './schemas.js';
import {
  answerSigningText,
  requestSigningText,
  sign,
  signatureHeaders,
  signatureMatches,
  unixSeconds,
} from './signing.js';

const secret = 'client-test-secret-0123456789';

interface Answer {
  readonly status?: number;
  readonly body: string;
  /** How to sign: right, not at all, with another secret, for another nonce, or long ago. */
  readonly signing?: 'right' | 'none' | 'other-secret' | 'other-nonce' | 'stale';
}

/**
 * The client against a real HTTP server playing the extension: an answer is
 * believed only with the right signature, bound to its request, fresh, and
 * of the contract's exact shape; anything else is a coded refusal.
 */
describe('callExtension', () => {
  let server: TestServer;
  let next: Answer = { body: '{}' };
  let extension: CompiledExtension;
  const deps = {
    send: (request: Parameters<typeof sendOutbound>[0]) => sendOutbound(request),
    clock: Date.now,
    random: (size: number) => randomBytes(size),
  };

  before(async () => {
    server = await startTestServer((request, response) => {
      reply(request, response, next);
    });
    extension = { url: `${server.url}/ext`, secret, settings: {} };
  });
  after(async () => server.close());

  function reply(request: IncomingMessage, response: ServerResponse, answer: Answer): void {
    const status = answer.status ?? 200;
    const requestNonce = String(request.headers[signatureHeaders.nonce]);
    const nonce = answer.signing === 'other-nonce' ? 'an-earlier-request-nonce' : requestNonce;
    const now = answer.signing === 'stale' ? Date.now() - 10 * 60_000 : Date.now();
    const timestamp = unixSeconds(now);
    const key = answer.signing === 'other-secret' ? 'not-the-shared-secret-xyz' : secret;
    const signature = sign(key, answerSigningText({ status, timestamp, nonce, body: answer.body }));
    response.writeHead(status, {
      'content-type': 'application/json',
      [signatureHeaders.timestamp]: timestamp,
      ...(answer.signing === 'none' ? {} : { [signatureHeaders.signature]: signature }),
    });
    response.end(answer.body);
  }

  const askForUrl = () =>
    callExtension(deps, extension, {
      method: 'POST',
      route: '/authorize-url',
      body: { entryId: 'e', state: 's', redirectUri: 'https://gw/cb', settings: {} },
      answer: authorizeUrlAnswer,
      timeoutMs: 2000,
    });

  async function refusedWith(answer: Answer, code: ErrorCode): Promise<Error> {
    next = answer;
    const error = await askForUrl().then(
      () => assert.fail('expected a refusal'),
      (caught: unknown) => caught,
    );
    assert.ok(isSsogateError(error), String(error));
    assert.equal(error.code, code, error.message);
    return error;
  }

  test('signs its request over method, path, timestamp, nonce and body', async () => {
    next = { body: '{"url":"https://as.example/authorize?x=1"}' };
    assert.deepEqual(await askForUrl(), { url: 'https://as.example/authorize?x=1' });
    const received = server.received.at(-1);
    assert.ok(received);
    assert.equal(received.url, '/ext/authorize-url');
    const text = requestSigningText({
      method: received.method,
      path: received.url,
      timestamp: String(received.headers[signatureHeaders.timestamp]),
      nonce: String(received.headers[signatureHeaders.nonce]),
      body: received.body,
    });
    assert.ok(signatureMatches(secret, text, String(received.headers[signatureHeaders.signature])));
    assert.ok(!signatureMatches('another-secret-0123456', text, sign(secret, text).slice(0, -1)));
  });

  test('refuses an answer with no signature, a wrong one, or one made with another secret', async () => {
    const body = '{"url":"https://as.example/authorize"}';
    await refusedWith({ body, signing: 'none' }, 'extension_bad_signature');
    await refusedWith({ body, signing: 'other-secret' }, 'extension_bad_signature');
  });

  test('refuses an old answer replayed to a new request, and a stale one', async () => {
    const body = '{"url":"https://as.example/authorize"}';
    await refusedWith({ body, signing: 'other-nonce' }, 'extension_bad_signature');
    await refusedWith({ body, signing: 'stale' }, 'extension_bad_signature');
  });

  test('refuses a signed answer of an unknown shape, naming the field', async () => {
    const extra = await refusedWith(
      { body: '{"url":"https://as.example/a","admin":true}' },
      'extension_bad_answer',
    );
    assert.match(extra.message, /admin/);
    const wrongType = await refusedWith({ body: '{"url":42}' }, 'extension_bad_answer');
    assert.match(wrongType.message, /url/);
    await refusedWith({ body: '<url>https://as.example</url>' }, 'extension_bad_answer');
    await refusedWith({ body: '{}' }, 'extension_bad_answer');
    await refusedWith({ status: 404, body: '{"url":"https://a.example"}' }, 'extension_bad_answer');
  });

  test('a user answer with an unnamed attribute or a bad type is refused', async () => {
    for (const user of [
      { userId: 'a', isAdmin: true },
      { userId: 'a', enabled: 'yes' },
      { userId: '' },
      { userId: 'x'.repeat(256) },
    ]) {
      next = { body: JSON.stringify({ user }) };
      await assert.rejects(
        callExtension(deps, extension, {
          method: 'POST',
          route: '/callback',
          body: {},
          answer: callbackAnswer,
          timeoutMs: 2000,
        }),
        (error: unknown) => isSsogateError(error) && error.code === 'extension_bad_answer',
      );
    }
  });

  test("a signed error answer is the extension's error, with its code and message", async () => {
    const error = await refusedWith(
      { status: 400, body: '{"error":{"code":"access_denied","message":"declined"}}' },
      'extension_error',
    );
    assert.ok(error instanceof ExtensionAnswerError);
    assert.equal(error.extensionCode, 'access_denied');
    assert.equal(error.extensionMessage, 'declined');
  });

  test('an unsigned 5xx is unavailable; a signed one is read as an answer', async () => {
    await refusedWith(
      { status: 503, body: 'bad gateway', signing: 'none' },
      'extension_unavailable',
    );
    await refusedWith({ status: 500, body: '{"oops":1}' }, 'extension_bad_answer');
  });

  test('plain http to another host than loopback is refused before any call', async () => {
    let sent = 0;
    const guarded = withTransportPolicy(async (request) => {
      sent += 1;
      return sendOutbound(request);
    }, false);
    await assert.rejects(
      callExtension(
        { ...deps, send: guarded },
        { ...extension, url: 'http://ext.example' },
        {
          method: 'GET',
          route: '/health',
          answer: authorizeUrlAnswer,
          timeoutMs: 2000,
        },
      ),
      (error: unknown) => isSsogateError(error) && error.code === 'extension_unavailable',
    );
    assert.equal(sent, 0);
  });

  test('an answer over the size cap is refused without reading it whole', async () => {
    await refusedWith({ body: `{"url":"${'a'.repeat(maxAnswerBytes)}"}` }, 'extension_bad_answer');
  });
});
