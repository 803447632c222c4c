import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { safeReturnTo } from './return-to.js';
import { returnToFragments, textOf } from '../../core/test-support/fuzz-inputs.js';

const BASE = 'http://gateway.invalid';

function assertSafe(result: string): void {
  assert.ok(result.startsWith('/'), result);
  assert.ok(!result.startsWith('//') && !result.startsWith('/\\'), result);
  assert.equal(new URL(result, BASE).origin, BASE);
  assert.equal(new URL(result, 'https://app.example.com').origin, 'https://app.example.com');
}

describe('safeReturnTo: every other-origin spelling becomes /', () => {
  const vectors = [
    '//evil.com',
    '/\\evil.com',
    '/ /evil.com',
    '/\t/evil.com',
    '/\r\\evil.com',
    '/\r/evil.com',
    '/\n/evil.com',
    '/./\\evil.com',
    '/./../../\\evil.com',
    'https://evil.com',
    'https://app.example.com.evil.com',
    'https://app.example.com@evil.com',
    'http://app.example.com:3838/',
    'javascript:alert(1)',
    '%2F%2Fevil.com',
    // Variants of the same tricks.
    '/%2F%2Fevil.com',
    '/%2f/evil.com',
    '/%5Cevil.com',
    '/%09/evil.com',
    '/%0D%0A/evil.com',
    '/%20/evil.com',
    '/.//evil.com',
    '/a/..//evil.com',
    '/%2e//evil.com',
    '///evil.com',
    '\\\\evil.com',
    ' /dashboard',
    '/dashboard ',
    '/dash\u0000board',
    '/\u00a0/evil.com',
    '/\u200b/evil.com',
    '/\u202e/evil.com',
    '/\u3000/evil.com',
    'JaVaScRiPt:alert(1)',
    'data:text/html,x',
    '?x=1',
    '#frag',
    'dashboard',
    '/%E0%A4%A',
  ];
  for (const vector of vectors) {
    test(JSON.stringify(vector), () => {
      assert.equal(safeReturnTo(vector), '/');
    });
  }
});

describe('safeReturnTo: same-origin paths', () => {
  test('path and query are preserved', () => {
    assert.equal(safeReturnTo('/dashboard?x=1'), '/dashboard?x=1');
    assert.equal(safeReturnTo('/a/b/c?x=1&y=%20z'), '/a/b/c?x=1&y=%20z');
    assert.equal(safeReturnTo('/'), '/');
  });

  test('the fragment is dropped', () => {
    assert.equal(safeReturnTo('/dashboard?x=1#section'), '/dashboard?x=1');
    assert.equal(safeReturnTo('/page#//evil.com'), '/page');
  });

  test('dot segments are resolved, staying on the origin', () => {
    assert.equal(safeReturnTo('/a/./b/../c'), '/a/c');
    assert.equal(safeReturnTo('/../../etc'), '/etc');
  });

  test('non-ASCII text is percent-encoded, an ordinary encoded path is kept', () => {
    assert.equal(safeReturnTo('/café'), '/caf%C3%A9');
    assert.equal(safeReturnTo('/files/a%20b'), '/files/a%20b');
    assert.equal(safeReturnTo('/a%2Fb'), '/a%2Fb');
  });

  test('a query holding a URL is fine: it is not where the browser goes', () => {
    assert.equal(safeReturnTo('/go?next=https://evil.com'), '/go?next=https://evil.com');
  });
});

describe('safeReturnTo: the gateway prefix', () => {
  for (const path of [
    '/_sso',
    '/_sso/',
    '/_sso/callback/e1?code=x&state=y',
    '/_sso/logout',
    '/_sso/login',
    '/_sso/login/e1',
    '/_SSO/logout',
    '/%5Fsso/logout',
    '/_sso/admin/../logout',
    '/_sso/admin/%2e%2e/logout',
    '/_sso/admin%2F..%2Flogout',
    '/_sso/administrator',
    '/x/../_sso/logout',
    '/_sso/oidc/token',
    '/_sso/oidc/authorize/more',
    '/_SSO/oidc/authorize',
  ]) {
    test(`${path} becomes /`, () => {
      assert.equal(safeReturnTo(path), '/');
    });
  }

  test('the admin console and below are allowed', () => {
    assert.equal(safeReturnTo('/_sso/admin'), '/_sso/admin');
    assert.equal(safeReturnTo('/_sso/admin/entries?id=1'), '/_sso/admin/entries?id=1');
  });

  test("the OpenID Provider's authorization endpoint is allowed, its query kept", () => {
    const request =
      '/_sso/oidc/authorize?client_id=app&redirect_uri=https%3A%2F%2Fapp.example%2Fcb';
    assert.equal(safeReturnTo(request), request);
  });

  test('paths that merely start alike are not reserved', () => {
    assert.equal(safeReturnTo('/_ssox'), '/_ssox');
    assert.equal(safeReturnTo('/app/_sso/logout'), '/app/_sso/logout');
  });
});

describe('safeReturnTo: odd input', () => {
  test('empty and non-strings become /', () => {
    for (const value of [
      '',
      undefined,
      null,
      0,
      1,
      true,
      {},
      ['/x'],
      ['/x', '/y'],
      new URL('http://gateway.invalid/x'),
    ]) {
      assert.equal(safeReturnTo(value), '/');
    }
  });

  test('a value longer than 2048 characters becomes /', () => {
    assert.equal(safeReturnTo(`/${'a'.repeat(2047)}`), `/${'a'.repeat(2047)}`);
    assert.equal(safeReturnTo(`/${'a'.repeat(2048)}`), '/');
    assert.equal(safeReturnTo(`/${'a'.repeat(100 * 1024)}`), '/');
  });

  test('a value that grows past 2048 when encoded becomes /', () => {
    assert.equal(safeReturnTo(`/${'é'.repeat(1000)}`), '/');
  });
});

describe('safeReturnTo: properties', () => {
  const crafted = textOf(returnToFragments, { maxPieces: 12, randomLength: 0 });
  const anyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    crafted,
    crafted.map((s) => `/${s}`),
  );

  test('the result is / or a same-origin path that cannot be read as a host', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const result = safeReturnTo(raw);
        assertSafe(result);
        assert.ok(result.length <= 2048);
        assert.doesNotMatch(result, /[\\\s\p{Cc}#]/u);
      }),
      { numRuns: 5000 },
    );
  });

  test('it is idempotent', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const once = safeReturnTo(raw);
        assert.equal(safeReturnTo(once), once);
      }),
      { numRuns: 2000 },
    );
  });

  test('plain paths of safe characters are kept as they are', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,10}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join('/')}`;
        if (path.toLowerCase().startsWith('/_sso')) return;
        assert.equal(safeReturnTo(path), path);
      }),
    );
  });
});
