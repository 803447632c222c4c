import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { ThirdPartyResponse } from '../../core/index.js';
import { sendOutbound } from './send-outbound.js';
import { outbound, suiteServers } from './test-support/http-fixture.js';

describe('sendOutbound: responses', () => {
  const serve = suiteServers();

  test('returns the status and body of a 200 JSON response', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"access_token":"tok-ü"}');
    });
    const result = await sendOutbound(outbound({ url: `${server.url}/token?code=abc` }));
    assert.deepEqual(bodyOf(result), { status: 200, body: '{"access_token":"tok-ü"}' });
    assert.equal(result.headers?.['content-type'], 'application/json');
    const [received] = server.received;
    assert.equal(received?.url, '/token?code=abc');
    // Asking for compression would let a small download inflate into a huge body.
    assert.equal(received.headers['accept-encoding'], undefined);
  });

  test('returns a 302 as a response and never follows it', async () => {
    const target = await serve((_request, response) => response.end('followed'));
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `${target.url}/elsewhere` });
      response.end('moved');
    });
    const result = await sendOutbound(outbound({ url: `${server.url}/token` }));
    assert.deepEqual(bodyOf(result), { status: 302, body: 'moved' });
    assert.equal(target.received.length, 0);
  });

  test('sends a POST body and headers intact', async () => {
    const server = await serve((_request, response) => response.end('ok'));
    const body = JSON.stringify({ code: 'a b&c=d', secret: 'ß€' });
    const result = await sendOutbound(
      outbound({
        method: 'POST',
        url: `${server.url}/token`,
        headers: {
          'content-type': 'application/json;charset=utf-8',
          authorization: 'Basic ZGVtbzpzZWNyZXQ=',
          'accept-encoding': 'gzip',
        },
        body,
      }),
    );
    assert.equal(result.body, 'ok');
    const received = server.received[0];
    assert.equal(received?.method, 'POST');
    assert.equal(received.body, body);
    assert.equal(received.headers['content-type'], 'application/json;charset=utf-8');
    assert.equal(received.headers.authorization, 'Basic ZGVtbzpzZWNyZXQ=');
    assert.equal(received.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(received.headers['accept-encoding'], undefined);
  });

  test('returns a gzip body as its raw bytes, never inflated', async () => {
    const compressed = gzipSync(Buffer.alloc(10 * 1024 * 1024, 'a'));
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end(compressed);
    });
    const result = await sendOutbound(outbound({ url: server.url }));
    assert.ok(result.body.length < 1024 * 1024);
    assert.ok(!result.body.includes('aaaa'));
  });

  test('decodes the body as UTF-8 and reads a body exactly at the cap', async () => {
    const server = await serve((_request, response) => response.end('é'.repeat(512)));
    const result = await sendOutbound(outbound({ url: server.url, maxResponseBytes: 1024 }));
    assert.equal(result.body, 'é'.repeat(512));
  });

  test('returns error statuses with their body', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(400);
      response.end('{"error":"invalid_grant"}');
    });
    const result = await sendOutbound(outbound({ url: server.url }));
    assert.deepEqual(bodyOf(result), { status: 400, body: '{"error":"invalid_grant"}' });
  });
});

function bodyOf({ status, body }: ThirdPartyResponse): ThirdPartyResponse {
  return { status, body };
}
