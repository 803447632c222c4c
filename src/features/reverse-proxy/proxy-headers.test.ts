import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { ForwardContext } from './proxy-headers.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './proxy-headers.js';
import { gatewayMemory } from '../../foundation/http/gateway-memory.js';

const context: ForwardContext = {
  upstreamHost: 'app.internal:3000',
  publicProto: 'https',
  publicHost: 'sso.example.test',
  gatewayCookies: new Set(['ssogate_session', 'ssogate_binding']),
  identity: [['X-Auth-Request-User', 'carol']],
  upgrade: false,
  lastConnection: gatewayMemory().lastConnection,
};

/** A message as Node parses one: raw header lines, and the lower-cased object. */
function message(rawHeaders: string[]): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    headers[(rawHeaders[index] ?? '').toLowerCase()] = rawHeaders[index + 1] ?? '';
  }
  return {
    rawHeaders,
    headers,
    socket: { remoteAddress: '10.0.0.7' },
  } as unknown as IncomingMessage;
}

/** The value of a header in a flat [name, value, ...] list, or undefined. */
function valueOf(list: readonly string[], name: string): string | undefined {
  for (let index = 0; index + 1 < list.length; index += 2)
    if (list[index]?.toLowerCase() === name) return list[index + 1];
  return undefined;
}

describe('upstreamRequestHeaders: the Cookie header', () => {
  const cookieFor = (header: string) =>
    valueOf(upstreamRequestHeaders(message(['Cookie', header]), context), 'cookie');

  test("the gateway's cookies go, wherever they stand; the others stay in order", () => {
    assert.equal(cookieFor('a=1; ssogate_session=s3cr3t; b=2'), 'a=1; b=2');
    assert.equal(cookieFor('ssogate_binding=x;a=1'), 'a=1');
    assert.equal(cookieFor('a=1;ssogate_session=s'), 'a=1');
  });

  test('spacing and empty pieces are tidied, values kept as they came', () => {
    assert.equal(cookieFor('  a=1 ;;  b = two words ; ;'), 'a=1; b = two words');
    assert.equal(cookieFor('flag; a=x=y'), 'flag; a=x=y');
  });

  test('only gateway cookies, or nothing at all: no Cookie header is sent', () => {
    assert.equal(cookieFor('ssogate_session=s; ssogate_binding=b'), undefined);
    assert.equal(cookieFor(' ; '), undefined);
    assert.equal(cookieFor(''), undefined);
  });

  test('a name that only contains a gateway cookie name is not one', () => {
    assert.equal(
      cookieFor('my_ssogate_session=1; ssogate_session_x=2'),
      'my_ssogate_session=1; ssogate_session_x=2',
    );
  });
});

describe('headers the Connection header names stay on their hop', () => {
  test('each message is read by its own Connection header, one after another', () => {
    const first = upstreamRequestHeaders(
      message(['Connection', 'keep-alive, X-Hop', 'X-Hop', '1', 'X-End', '2']),
      context,
    );
    assert.equal(valueOf(first, 'x-hop'), undefined);
    assert.equal(valueOf(first, 'x-end'), '2');
    const second = upstreamRequestHeaders(message(['X-Hop', '1', 'X-End', '2']), context);
    assert.equal(valueOf(second, 'x-hop'), '1');
    const third = upstreamRequestHeaders(
      message(['Connection', 'X-End', 'X-Hop', '1', 'X-End', '2']),
      context,
    );
    assert.equal(valueOf(third, 'x-hop'), '1');
    assert.equal(valueOf(third, 'x-end'), undefined);
  });

  test('in answers too, beside Keep-Alive and the Set-Cookie of a gateway cookie', () => {
    const answer = clientResponseHeaders(
      message([
        'Connection',
        'keep-alive, X-Hop',
        'Keep-Alive',
        'timeout=5',
        'X-Hop',
        'a',
        'Set-Cookie',
        'ssogate_session=planted; Path=/',
        'Set-Cookie',
        'theme=dark',
        'Content-Type',
        'text/plain',
      ]),
      context.gatewayCookies,
      context.lastConnection,
    );
    assert.deepEqual(answer, ['Set-Cookie', 'theme=dark', 'Content-Type', 'text/plain']);
  });
});

describe('upstreamRequestHeaders: what the gateway adds', () => {
  test('Host, forwarding headers and identity, the client’s own versions dropped', () => {
    const headers = upstreamRequestHeaders(
      message([
        'Host',
        'sso.example.test',
        'X-Forwarded-For',
        '6.6.6.6',
        'x-auth-request-user',
        'root',
      ]),
      context,
    );
    assert.deepEqual(headers, [
      'Host',
      'app.internal:3000',
      'X-Forwarded-For',
      '10.0.0.7',
      'X-Forwarded-Proto',
      'https',
      'X-Forwarded-Host',
      'sso.example.test',
      'X-Auth-Request-User',
      'carol',
    ]);
  });
});
