import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BINDING_COOKIE,
  SECURE_BINDING_COOKIE,
  clearCookie,
  cookieNames,
  parseCookieHeader,
  serializeCookie,
} from './cookies.js';

describe('parseCookieHeader', () => {
  test('no header or an empty one gives no cookies', () => {
    assert.equal(parseCookieHeader(undefined).size, 0);
    assert.equal(parseCookieHeader('').size, 0);
  });

  test('reads pairs separated by "; " and trims optional whitespace', () => {
    const cookies = parseCookieHeader('a=1; b=two;c=3 ;\td=4\t');
    assert.deepEqual(
      [...cookies],
      [
        ['a', '1'],
        ['b', 'two'],
        ['c', '3'],
        ['d', '4'],
      ],
    );
  });

  test('the first occurrence of a name wins', () => {
    assert.equal(
      parseCookieHeader('ssogate_session=first; ssogate_session=second').get('ssogate_session'),
      'first',
    );
  });

  test('malformed pairs are skipped, the rest kept', () => {
    const cookies = parseCookieHeader(
      'noequals; =novalue; bad name=1; ok=1; q="quoted"; sp=a b; dq=a"b; x=\\1; e=',
    );
    assert.deepEqual(
      [...cookies],
      [
        ['ok', '1'],
        ['q', 'quoted'],
        ['e', ''],
      ],
    );
  });

  test('values are percent-decoded only when the encoding is valid', () => {
    const cookies = parseCookieHeader('a=hello%20world; b=%E0%A4%A; c=100%; d=%41');
    assert.equal(cookies.get('a'), 'hello world');
    assert.equal(cookies.get('b'), '%E0%A4%A');
    assert.equal(cookies.get('c'), '100%');
    assert.equal(cookies.get('d'), 'A');
  });

  test('names are not decoded and are case-sensitive', () => {
    const cookies = parseCookieHeader('A%41=1; Session=1');
    assert.equal(cookies.get('A%41'), '1');
    assert.equal(cookies.get('session'), undefined);
  });

  test('__proto__ is an ordinary name', () => {
    const cookies = parseCookieHeader('__proto__=x; constructor=y');
    assert.equal(cookies.get('__proto__'), 'x');
    assert.equal(cookies.get('constructor'), 'y');
  });

  test('reads at most 50 cookies', () => {
    const header = Array.from({ length: 60 }, (_, i) => `c${i}=${i}`).join('; ');
    const cookies = parseCookieHeader(header);
    assert.equal(cookies.size, 50);
    assert.equal(cookies.get('c49'), '49');
    assert.equal(cookies.get('c50'), undefined);
  });

  test('reads only the first 8 KiB and never a truncated value', () => {
    const header = `a=1; big=${'x'.repeat(8200)}; late=1`;
    const cookies = parseCookieHeader(header);
    assert.equal(cookies.get('a'), '1');
    assert.equal(cookies.has('big'), false);
    assert.equal(cookies.has('late'), false);
  });

  test('a cut that falls on a separator keeps the last whole pair', () => {
    const first = `a=${'y'.repeat(8190)}`;
    assert.equal(first.length, 8192);
    const cookies = parseCookieHeader(`${first};b=1`);
    assert.equal(cookies.get('a')?.length, 8190);
    assert.equal(cookies.has('b'), false);
  });
});

describe('serializeCookie', () => {
  test('writes every attribute in a fixed order, Path=/ by default, never Domain', () => {
    const header = serializeCookie('__Host-ssogate_session', 'abc_DEF-123', {
      maxAgeSeconds: 3600,
      expires: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)),
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    });
    assert.equal(
      header,
      '__Host-ssogate_session=abc_DEF-123; Max-Age=3600; Expires=Wed, 02 Jan 2030 03:04:05 GMT; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    assert.doesNotMatch(header, /domain/i);
  });

  test('optional attributes are left out', () => {
    assert.equal(
      serializeCookie('n', 'v', { httpOnly: false, secure: false, sameSite: 'Strict', path: '/x' }),
      'n=v; Path=/x; SameSite=Strict',
    );
  });

  test('rejects invalid names and values', () => {
    const options = { httpOnly: true, secure: false, sameSite: 'Lax' } as const;
    for (const name of ['', 'a b', 'a;b', 'a=b', 'a\r\nSet-Cookie: x', 'é', 'a,b', 'a"b']) {
      assert.throws(() => serializeCookie(name, 'v', options), TypeError, JSON.stringify(name));
    }
    for (const value of ['a b', 'a;b', 'a,b', 'a"b', 'a\\b', 'a\r\nx', 'é', 'a\u0000']) {
      assert.throws(() => serializeCookie('n', value, options), TypeError, JSON.stringify(value));
    }
  });

  test('rejects an invalid path, Max-Age or Expires', () => {
    const base = { httpOnly: true, secure: false, sameSite: 'Lax' } as const;
    assert.throws(() => serializeCookie('n', 'v', { ...base, path: 'x' }), TypeError);
    assert.throws(() => serializeCookie('n', 'v', { ...base, path: '/;Domain=evil' }), TypeError);
    assert.throws(() => serializeCookie('n', 'v', { ...base, maxAgeSeconds: -1 }), RangeError);
    assert.throws(() => serializeCookie('n', 'v', { ...base, maxAgeSeconds: 1.5 }), RangeError);
    assert.throws(() => serializeCookie('n', 'v', { ...base, expires: new Date(NaN) }), RangeError);
  });

  test('enforces the __Host- and __Secure- prefix rules', () => {
    assert.throws(
      () => serializeCookie('__Host-x', 'v', { httpOnly: true, secure: false, sameSite: 'Lax' }),
      TypeError,
    );
    assert.throws(
      () =>
        serializeCookie('__Host-x', 'v', {
          httpOnly: true,
          secure: true,
          sameSite: 'Lax',
          path: '/a',
        }),
      TypeError,
    );
    assert.throws(
      () => serializeCookie('__Secure-x', 'v', { httpOnly: true, secure: false, sameSite: 'Lax' }),
      TypeError,
    );
  });

  test('rejects a cookie over 4096 bytes', () => {
    const options = { httpOnly: true, secure: false, sameSite: 'Lax' } as const;
    assert.throws(() => serializeCookie('n', 'x'.repeat(4100), options), RangeError);
  });

  test('round-trips through parseCookieHeader', () => {
    const header = serializeCookie('ssogate_binding', 'Zm9v-YmFy_', {
      httpOnly: true,
      secure: false,
      sameSite: 'Lax',
    });
    const pair = header.split(';')[0] ?? '';
    assert.equal(parseCookieHeader(pair).get('ssogate_binding'), 'Zm9v-YmFy_');
  });
});

describe('clearCookie', () => {
  test('sets an empty value, Max-Age=0 and a past Expires with matching attributes', () => {
    assert.equal(
      clearCookie('__Host-ssogate_session', { secure: true, sameSite: 'Lax' }),
      '__Host-ssogate_session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    assert.match(
      clearCookie('n', { secure: false, sameSite: 'Strict', path: '/p' }),
      /; Path=\/p; HttpOnly; SameSite=Strict$/,
    );
  });
});

describe('cookieNames', () => {
  test('uses the __Host- prefix only over https', () => {
    assert.deepEqual(cookieNames(true), {
      session: '__Host-ssogate_session',
      binding: SECURE_BINDING_COOKIE,
      console: '__Host-ssogate_console',
    });
    assert.deepEqual(cookieNames(false), {
      session: 'ssogate_session',
      binding: BINDING_COOKIE,
      console: 'ssogate_console',
    });
    assert.equal(BINDING_COOKIE, 'ssogate_binding');
    assert.equal(SECURE_BINDING_COOKIE, '__Host-ssogate_binding');
  });

  test('a session cookie for a domain is __Secure- over https (__Host- forbids Domain), plain over http', () => {
    assert.deepEqual(cookieNames(true, true), {
      session: '__Secure-ssogate_session',
      binding: SECURE_BINDING_COOKIE,
      // The console's cookie is the auth host's alone, whatever the session's domain.
      console: '__Host-ssogate_console',
    });
    assert.deepEqual(cookieNames(false, true), cookieNames(false));
  });
});

describe('a cookie for a domain', () => {
  const options = {
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    domain: 'corp.example',
  } as const;

  test('carries Domain, and clearing it names the same domain', () => {
    assert.equal(
      serializeCookie('__Secure-s', 'v', options),
      '__Secure-s=v; Domain=corp.example; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    assert.match(
      clearCookie('__Secure-s', { secure: true, sameSite: 'Lax', domain: 'corp.example' }),
      /; Domain=corp\.example; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  test('is refused with the __Host- prefix, or a domain a browser would misread', () => {
    assert.throws(() => serializeCookie('__Host-s', 'v', options), /no Domain for its prefix/);
    for (const domain of ['.corp.example', 'corp.example;x=1', 'Corp.Example', ''])
      assert.throws(() => serializeCookie('s', 'v', { ...options, domain }), /domain is invalid/);
  });
});
